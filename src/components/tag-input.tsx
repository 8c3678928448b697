import { useId, useState, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import { t } from '../lib/i18n';
import { addTags } from '../lib/tags';
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

/** Tags typed one by one: Enter or Space adds the typed tag (trimmed, lower-cased, once); each chip can be removed. */
export function TagInput({ label, value, onChange, error, placeholder = t.controls.tagPlaceholder }: TagInputProps) {
  const [draft, setDraft] = useState('');
  const inputId = useId();
  const errorId = `${inputId}-error`;

  const commit = () => {
    if (draft.trim() === '') return;
    onChange(addTags(value, draft));
    setDraft('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter with nothing typed still submits the form; a tag never holds a space.
    if (event.key === ' ' || (event.key === 'Enter' && draft.trim() !== '')) {
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
          onChange={(event) => setDraft(event.target.value)}
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
