import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SelectOption } from '../../src/lib/contract';
import { MultiSelect } from '../../src/components/multi-select';

const kyiv = { id: 1, title: '#1 Kyiv', value: 1 };
const lviv = { id: 2, title: '#2 Lviv', value: 2 };

function Harness({ options, initial = [] }: { options: SelectOption[]; initial?: SelectOption[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <MultiSelect label="Профілі" options={options} value={value} onChange={setValue} />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

const valueNow = () => JSON.parse(screen.getByTestId('value').textContent!);

describe('MultiSelect', () => {
  it("shows 'Не знайдено' when there are no options", async () => {
    const user = userEvent.setup();
    render(<Harness options={[]} />);
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    expect(screen.getByText('Не знайдено')).toBeInTheDocument();
    expect(screen.queryAllByRole('option')).toEqual([]);
  });

  it('picks options as { id, title, value } and offers only the rest', async () => {
    const user = userEvent.setup();
    render(<Harness options={[kyiv, lviv]} />);
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: '#2 Lviv' }));
    expect(valueNow()).toEqual([lviv]);
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['#1 Kyiv']);
    await user.click(screen.getByRole('option', { name: '#1 Kyiv' }));
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    expect(screen.getByText('Не знайдено')).toBeInTheDocument();
  });

  it('filters by what is typed and picks the first match on Enter', async () => {
    const user = userEvent.setup();
    render(<Harness options={[kyiv, lviv]} />);
    await user.type(screen.getByRole('combobox', { name: 'Профілі' }), 'lv');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['#2 Lviv']);
    await user.keyboard('{Enter}');
    expect(valueNow()).toEqual([lviv]);
    await user.type(screen.getByRole('combobox', { name: 'Профілі' }), 'odesa');
    expect(screen.getByText('Не знайдено')).toBeInTheDocument();
  });

  it('points aria-activedescendant at no option while a query matches none, and at the first again once one does', async () => {
    const user = userEvent.setup();
    render(<Harness options={[kyiv, lviv]} />);
    const combobox = screen.getByRole('combobox', { name: 'Профілі' });
    await user.type(combobox, 'odesa');
    expect(screen.getByText('Не знайдено')).toBeInTheDocument();
    expect(combobox.getAttribute('aria-activedescendant') ?? '').toBe('');
    await user.clear(combobox);
    await user.type(combobox, 'ky');
    expect(combobox).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: '#1 Kyiv' }).id);
  });

  it('moves through the list with the arrow keys and picks the highlighted option on Enter', async () => {
    const user = userEvent.setup();
    const odesa = { id: 3, title: '#3 Odesa', value: 3 };
    render(<Harness options={[kyiv, lviv, odesa]} />);
    const combobox = screen.getByRole('combobox', { name: 'Профілі' });
    await user.click(combobox);
    expect(combobox).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const highlighted = screen.getByRole('option', { name: '#3 Odesa' });
    expect(combobox).toHaveAttribute('aria-activedescendant', highlighted.id);
    await user.keyboard('{ArrowUp}{Enter}');
    expect(valueNow()).toEqual([lviv]);
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowDown}');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['#1 Kyiv', '#3 Odesa']);
    await user.keyboard('{Escape}');
    expect(screen.queryAllByRole('option')).toEqual([]);
  });

  it('picks nothing when the focus leaves the open list', async () => {
    const user = userEvent.setup();
    render(<Harness options={[kyiv, lviv]} />);
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.keyboard('{ArrowDown}');
    await user.tab();
    expect(valueNow()).toEqual([]);
  });

  it('removes the last chip with Backspace from the empty input', async () => {
    const user = userEvent.setup();
    render(<Harness options={[kyiv, lviv]} initial={[kyiv, lviv]} />);
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.keyboard('{Escape}{Backspace}');
    expect(valueNow()).toEqual([kyiv]);
  });

  it('removes a chosen option with its button', async () => {
    const user = userEvent.setup();
    render(<Harness options={[kyiv, lviv]} initial={[kyiv, lviv]} />);
    await user.click(screen.getByRole('button', { name: 'Прибрати #1 Kyiv' }));
    expect(valueNow()).toEqual([lviv]);
  });
});
