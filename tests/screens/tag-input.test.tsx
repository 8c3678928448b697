import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TagInput } from '../../src/components/tag-input';

function Harness({ initial = [] as string[] }) {
  const [tags, setTags] = useState(initial);
  return (
    <>
      <TagInput label="Теги" value={tags} onChange={setTags} />
      <output data-testid="tags">{JSON.stringify(tags)}</output>
    </>
  );
}

const tagsNow = () => JSON.parse(screen.getByTestId('tags').textContent!);

describe('TagInput', () => {
  it('asks for a tag with the spec placeholder', () => {
    render(<Harness />);
    expect(screen.getByLabelText('Теги')).toHaveAttribute('placeholder', 'Введіть тег');
  });

  it('adds the typed tag on Enter or Space, trimmed and lower-cased', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Теги');
    await user.type(input, '  Travel{Enter}');
    await user.type(input, 'SEA ');
    expect(tagsNow()).toEqual(['travel', 'sea']);
    expect(input).toHaveValue('');
    expect(screen.getByText('travel')).toBeInTheDocument();
  });

  it('ends a tag at a comma or a semicolon, so "кіно, музика" gives two tags and never "кіно,"', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Теги');
    await user.type(input, 'кіно, музика;Театр');
    expect(tagsNow()).toEqual(['кіно', 'музика']);
    expect(input).toHaveValue('Театр');
    await user.type(input, '{Enter}');
    expect(tagsNow()).toEqual(['кіно', 'музика', 'театр']);
    expect(screen.getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Видалити тег кіно',
      'Видалити тег музика',
      'Видалити тег театр',
    ]);
  });

  it('splits a pasted list of tags and keeps its unfinished last word in the field', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['кіно']} />);
    const input = screen.getByLabelText('Теги');
    await user.click(input);
    await user.paste(' Кіно,музика ;  спорт;;біг');
    expect(tagsNow()).toEqual(['кіно', 'музика', 'спорт']);
    expect(input).toHaveValue('біг');
  });

  it('ignores duplicates and empty input', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['sea']} />);
    const input = screen.getByLabelText('Теги');
    await user.type(input, 'Sea{Enter} {Enter}sea ');
    expect(tagsNow()).toEqual(['sea']);
  });

  it('removes a tag with its button', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['sea', 'sun']} />);
    await user.click(screen.getByRole('button', { name: 'Видалити тег sea' }));
    expect(tagsNow()).toEqual(['sun']);
  });

  it('keeps what was typed when the field loses focus', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByLabelText('Теги'), 'beach');
    await user.tab();
    expect(tagsNow()).toEqual(['beach']);
  });
});
