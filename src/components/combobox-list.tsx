import { useCombobox, type UseComboboxReturnValue, type UseComboboxStateChange } from 'downshift';
import type { ReactNode } from 'react';
import * as t from '../lib/i18n';
import styles from './combobox-list.module.css';

/**
 * Downshift's state changes for a search-and-pick field: Enter or a click hands over the
 * highlighted item and empties the search, typing is the search.
 */
export function pickOrSearch<Item>(onPick: (item: Item) => void, setQuery: (query: string) => void) {
  return ({ type, selectedItem, inputValue }: UseComboboxStateChange<Item>) => {
    switch (type) {
      case useCombobox.stateChangeTypes.InputKeyDownEnter:
      case useCombobox.stateChangeTypes.ItemClick:
        if (selectedItem) {
          onPick(selectedItem);
          setQuery('');
        }
        break;
      case useCombobox.stateChangeTypes.InputChange:
        setQuery(inputValue ?? '');
        break;
    }
  };
}

interface ComboboxListProps<Item> {
  combobox: Pick<UseComboboxReturnValue<Item>, 'isOpen' | 'highlightedIndex' | 'getMenuProps' | 'getItemProps'>;
  /** The field the list drops down from. */
  control: ReactNode;
  items: Item[];
  keyOf: (item: Item) => string | number;
  children: (item: Item) => ReactNode;
}

/** A combobox's field with its dropdown list of options, and 'Не знайдено' when none match. */
export function ComboboxList<Item>({ combobox, control, items, keyOf, children }: ComboboxListProps<Item>) {
  const { isOpen, highlightedIndex, getMenuProps, getItemProps } = combobox;
  return (
    <div className={styles.anchor}>
      {control}
      <div className={styles.list} hidden={!isOpen}>
        <ul {...getMenuProps({ className: styles.options })}>
          {isOpen &&
            items.map((item, index) => (
              <li
                key={keyOf(item)}
                className={`${styles.option} ${highlightedIndex === index ? styles.highlighted : ''}`}
                {...getItemProps({ item, index })}
              >
                {children(item)}
              </li>
            ))}
        </ul>
        {/* Outside the listbox, which may hold only options. */}
        {isOpen && items.length === 0 && (
          <p className={styles.empty} role="status">
            {t.app.notFoundOption}
          </p>
        )}
      </div>
    </div>
  );
}
