import { useId, useState, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import * as t from '../lib/i18n';
import { addTags, tagSeparator } from '../lib/tags';
import chipStyles from './chip-field.module.css';
import fieldStyles from './text-field.module.css';
import styles from './tag-input.module.css';

interface TagInputProps {
  label: string;
  value: string[];
  onChange: (tags: string[]) => void;
  error?: string;
  placeholder?: string;
}

/**
 * Tags typed one by one: Enter, Space, a comma or a semicolon ends the typed tag, which is added
 * trimmed, lower-cased and once; each chip can be removed. The split happens on change, not on
 * the key, so a pasted 'кіно, музика' and a phone keyboard's input split alike.
 */
export function TagInput({ label, value, onChange, error, placeholder = t.controls.tagPlaceholder }: TagInputProps) {
  const [draft, setDraft] = useState('');
  const inputId = useId();
  const errorId = `${inputId}-error`;

  const commit = () => {
    if (draft.trim() === '') return;
    onChange(addTags(value, draft));
    setDraft('');
  };

  const type = (text: string) => {
    const parts = text.split(tagSeparator);
    const rest = parts.pop()!;
    const added = addTags(value, parts.join(' '));
    if (added.length > value.length) onChange(added);
    setDraft(rest);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter with nothing typed still submits the form.
    if (event.key === 'Enter' && draft.trim() !== '') {
      event.preventDefault();
      commit();
    }
  };

  return (
    <div className={fieldStyles.field}>
      <label htmlFor={inputId} className={fieldStyles.label}>
        {label}
      </label>
      <div className={`${chipStyles.control} ${error ? chipStyles.invalid : ''}`}>
        {value.map((tag) => (
          <span key={tag} className={`${chipStyles.chip} ${styles.tag}`}>
            {tag}
            <button
              type="button"
              className={`${chipStyles.remove} ${styles.removeTag}`}
              aria-label={t.controls.removeTag(tag)}
              onClick={() => onChange(value.filter((item) => item !== tag))}
            >
              <X size={12} aria-hidden />
            </button>
          </span>
        ))}
        <input
          id={inputId}
          className={chipStyles.input}
          value={draft}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => type(event.target.value)}
          onKeyDown={onKeyDown}
          // Leaving the field keeps what was typed rather than dropping it.
          onBlur={commit}
        />
      </div>
      {error && (
        <span id={errorId} className={fieldStyles.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
