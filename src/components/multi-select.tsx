import { useCallback, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ChevronDown, X } from 'lucide-react';
import type { SelectOption } from '../lib/contract';
import { t } from '../lib/i18n';
import chipStyles from './chip-field.module.css';
import fieldStyles from './text-field.module.css';
import { useOutsideClick } from './use-outside-click';
import styles from './multi-select.module.css';

interface MultiSelectProps {
  label: string;
  options: SelectOption[];
  value: SelectOption[];
  onChange: (value: SelectOption[]) => void;
  placeholder?: string;
  error?: string;
}

/**
 * Picks several options, shown as removable chips. Typing filters the list; 'Не знайдено'
 * stands in for an empty one. Options are `{ id, title, value }` and compared by id.
 */
export function MultiSelect({ label, options, value, onChange, placeholder, error }: MultiSelectProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const listId = `${inputId}-list`;
  const errorId = `${inputId}-error`;

  const close = useCallback(() => setOpen(false), []);
  useOutsideClick(root, open, close);

  const chosen = new Set(value.map((option) => option.id));
  const needle = query.trim().toLowerCase();
  const available = options.filter((option) => !chosen.has(option.id) && option.title.toLowerCase().includes(needle));

  // The list closes after a pick so it never hides what lies below; a click or typing opens it again.
  const pick = (option: SelectOption) => {
    onChange([...value, option]);
    setQuery('');
    setOpen(false);
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (available[0]) pick(available[0]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    } else if (event.key === 'Backspace' && query === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    } else {
      setOpen(true);
    }
  };

  return (
    <div className={fieldStyles.field} ref={root}>
      <label htmlFor={inputId} className={fieldStyles.label}>
        {label}
      </label>
      <div className={styles.anchor}>
        {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a larger target for the pointer; keyboards use the combobox input inside */}
        <div
          className={`${chipStyles.control} ${error ? chipStyles.invalid : ''}`}
          onClick={() => {
            input.current?.focus();
            setOpen(true);
          }}
        >
          {value.map((option) => (
            <span key={option.id} className={chipStyles.chip}>
              {option.title}
              <button
                type="button"
                className={chipStyles.remove}
                aria-label={t.controls.removeOption(option.title)}
                onClick={(event) => {
                  event.stopPropagation();
                  onChange(value.filter((item) => item.id !== option.id));
                }}
              >
                <X size={12} aria-hidden />
              </button>
            </span>
          ))}
          <input
            ref={input}
            id={inputId}
            role="combobox"
            aria-expanded={open}
            aria-controls={listId}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            autoComplete="off"
            className={chipStyles.input}
            value={query}
            placeholder={value.length === 0 ? placeholder : undefined}
            onChange={(event) => {
              setQuery(event.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onKeyDown={onKeyDown}
          />
          <ChevronDown size={16} aria-hidden className={styles.chevron} />
        </div>
        {open && (
          <ul id={listId} role="listbox" aria-multiselectable className={styles.list}>
            {available.length === 0 ? (
              <li className={styles.empty}>{t.app.notFoundOption}</li>
            ) : (
              available.map((option) => (
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- keyboards pick from the combobox input (Enter)
                <li
                  key={option.id}
                  role="option"
                  aria-selected={false}
                  className={styles.option}
                  // Keeps the focus in the input for the next pick.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => pick(option)}
                >
                  {option.title}
                </li>
              ))
            )}
          </ul>
        )}
      </div>
      {error && (
        <span id={errorId} className={fieldStyles.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
