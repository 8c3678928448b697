import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DateTimeField } from '../../src/components/date-time-field';

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateTimeField label="Дата" value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

const valueNow = () => screen.getByTestId('value').textContent;

describe('DateTimeField', () => {
  it('shows a held date as dd.mm.yyyy on a 24-hour clock, with no native date or time input', () => {
    const { container } = render(<Harness initial="2031-07-01T18:30" />);
    expect(screen.getByLabelText('Дата: день')).toHaveValue('01.07.2031');
    expect(screen.getByLabelText('Дата: година')).toHaveValue('18');
    expect(screen.getByLabelText('Дата: хвилина')).toHaveValue('30');
    expect(container.querySelector('input[type="date"], input[type="time"], input[type="datetime-local"]')).toBeNull();
  });

  it('shows no time while there is no date', () => {
    render(<Harness />);
    expect(screen.getByLabelText('Дата: година')).toHaveDisplayValue('--');
    expect(screen.getByLabelText('Дата: хвилина')).toHaveDisplayValue('--');
  });

  it('takes a typed dd.mm.yyyy, at 12:00 unless a time was picked first', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByLabelText('Дата: день'), '01.07.2031');
    expect(valueNow()).toBe('2031-07-01T12:00');
    await user.selectOptions(screen.getByLabelText('Дата: година'), '09');
    expect(valueNow()).toBe('2031-07-01T09:00');
  });

  it('holds no date while the typed text is not a day, and says how to type one', async () => {
    const user = userEvent.setup();
    render(<Harness initial="2031-07-01T18:30" />);
    const day = screen.getByLabelText('Дата: день');
    await user.clear(day);
    await user.type(day, '31.02.2031');
    expect(valueNow()).toBe('');
    expect(day).toHaveValue('31.02.2031');
    await user.tab();
    expect(screen.getByText('Введіть дату як дд.мм.рррр')).toBeInTheDocument();
    expect(day).toHaveAccessibleDescription('Введіть дату як дд.мм.рррр');
  });

  it('picks a day in a Monday-first Ukrainian calendar with the keyboard, keeping the time', async () => {
    const user = userEvent.setup();
    render(<Harness initial="2031-07-01T18:30" />);
    await user.click(screen.getByRole('button', { name: 'Дата: вибрати день у календарі' }));
    const calendar = screen.getByRole('dialog', { name: 'Дата: календар' });
    // The month's code comes with the first opening (day-calendar.tsx).
    await within(calendar).findByRole('grid');
    expect(calendar).toHaveTextContent(/липень 2031/i);
    const weekdays = [...calendar.querySelectorAll('th')].map((cell) => cell.textContent);
    expect(weekdays[0]).toMatch(/^пн/i);
    expect(document.activeElement).toHaveTextContent('1');
    await user.keyboard('{ArrowDown}{ArrowRight}{Enter}');
    expect(valueNow()).toBe('2031-07-09T18:30');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Дата: вибрати день у календарі' })).toHaveFocus();
  });

  it('closes the calendar on Escape without a change', async () => {
    const user = userEvent.setup();
    render(<Harness initial="2031-07-01T18:30" />);
    await user.click(screen.getByRole('button', { name: 'Дата: вибрати день у календарі' }));
    await screen.findByRole('grid');
    await user.keyboard('{ArrowRight}{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(valueNow()).toBe('2031-07-01T18:30');
  });
});
