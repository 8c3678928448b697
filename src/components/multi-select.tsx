import { useCombobox, useMultipleSelection } from 'downshift';
import { useId, useState } from 'react';
import { ChevronDown, X } from 'lucide-react';
import type { SelectOption } from '../lib/contract';
import * as t from '../lib/i18n';
import chipStyles from './chip-field.module.css';
import fieldStyles from './text-field.module.css';
import { ComboboxList, pickOrSearch } from './combobox-list';
import styles from './combobox-list.module.css';

interface MultiSelectProps {
  label: string;
  options: SelectOption[];
  value: SelectOption[];
  onChange: (value: SelectOption[]) => void;
  placeholder?: string;
  error?: string;
}

/**
 * Picks several options, shown as removable chips: Downshift's combobox and multiple-selection
 * hooks (the WAI-ARIA combobox pattern: arrow keys through the list, Enter picks, Escape closes,
 * ArrowLeft and Backspace reach the chips). Typing filters the list; 'Не знайдено' stands in for an
 * empty one. Options are `{ id, title, value }` and compared by id.
 */
export function MultiSelect({ label, options, value, onChange, placeholder, error }: MultiSelectProps) {
  const [query, setQuery] = useState('');
  const errorId = `${useId()}-error`;

  const chosen = new Set(value.map((option) => option.id));
  const needle = query.trim().toLowerCase();
  const available = options.filter((option) => !chosen.has(option.id) && option.title.toLowerCase().includes(needle));

  const { getSelectedItemProps, getDropdownProps } = useMultipleSelection<SelectOption>({
    selectedItems: value,
    itemToKey: (option) => option?.id,
    onSelectedItemsChange: ({ selectedItems }) => onChange(selectedItems),
  });

  const combobox = useCombobox<SelectOption>({
    items: available,
    itemToString: (option) => option?.title ?? '',
    itemToKey: (option) => option?.id,
    inputValue: query,
    selectedItem: null,
    defaultHighlightedIndex: 0,
    // Nothing is highlighted while nothing matches: Downshift would point aria-activedescendant at an option that is not there.
    highlightedIndex: available.length > 0 ? undefined : -1,
    stateReducer: (_state, { changes, type }) => {
      switch (type) {
        // The list closes after a pick so it never hides what lies below; a click or typing opens it again.
        case useCombobox.stateChangeTypes.InputKeyDownEnter:
        case useCombobox.stateChangeTypes.ItemClick:
          return { ...changes, isOpen: false };
        // Leaving the field picks nothing: only Enter or a click does.
        case useCombobox.stateChangeTypes.InputBlur:
          return { ...changes, selectedItem: null };
        default:
          return changes;
      }
    },
    onStateChange: pickOrSearch((option) => onChange([...value, option]), setQuery),
  });

  const { isOpen, getLabelProps, getInputProps, openMenu } = combobox;

  return (
    <div className={fieldStyles.field}>
      <label {...getLabelProps({ className: fieldStyles.label })}>{label}</label>
      <ComboboxList
        combobox={combobox}
        items={available}
        keyOf={(option) => option.id}
        control={
          <>
            {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a larger target for the pointer; keyboards use the combobox input inside */}
            <div
              className={`${chipStyles.control} ${styles.withChevron} ${error ? chipStyles.invalid : ''}`}
              onClick={(event) => {
                event.currentTarget.querySelector('input')?.focus();
                openMenu();
              }}
            >
              {value.map((option, index) => (
                <span key={option.id} className={chipStyles.chip} {...getSelectedItemProps({ selectedItem: option, index })}>
                  {option.title}
                  <button
                    type="button"
                    tabIndex={-1}
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
                {...getInputProps({
                  ...getDropdownProps({ preventKeyAction: isOpen }),
                  className: chipStyles.input,
                  placeholder: value.length === 0 ? placeholder : undefined,
                  'aria-invalid': error ? true : undefined,
                  'aria-describedby': error ? errorId : undefined,
                  onFocus: () => {
                    if (!isOpen) openMenu();
                  },
                })}
              />
              <ChevronDown size={16} aria-hidden className={styles.chevron} />
            </div>
          </>
        }
      >
        {(option) => option.title}
      </ComboboxList>
      {error && (
        <span id={errorId} className={fieldStyles.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
