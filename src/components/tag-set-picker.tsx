import { useCombobox } from 'downshift';
import { useState } from 'react';
import type { TagSet } from '../lib/contract';
import * as t from '../lib/i18n';
import { QuickChips } from './quick-chips';
import fieldStyles from './text-field.module.css';
import { ComboboxList, pickOrSearch } from './combobox-list';
import styles from './tag-set-picker.module.css';

/** Up to this many sets stay one-click chips; more became a wall of rows at 1440 px (issue 24). */
export const chipLimit = 8;

type Picked = Pick<TagSet, 'id' | 'name' | 'tags'>;

interface TagSetPickerProps<Item extends Picked> {
  label: string;
  items: Item[];
  onPick: (item: Item) => void;
  disabled?: boolean;
}

/** Tag sets to add to a publication: chips while there are few, a searchable list once there are many. */
export function TagSetPicker<Item extends Picked>(props: TagSetPickerProps<Item>) {
  return props.items.length > chipLimit ? <SearchableTagSets {...props} /> : <QuickChips {...props} />;
}

/** Downshift's combobox: typing filters by a set's name or its tags, Enter or a click adds the set's tags. */
function SearchableTagSets<Item extends Picked>({ label, items, onPick, disabled }: TagSetPickerProps<Item>) {
  const [query, setQuery] = useState('');
  const needle = query.trim().toLowerCase();
  const shown = items.filter(
    (item) => item.name.toLowerCase().includes(needle) || item.tags.some((tag) => tag.toLowerCase().includes(needle)),
  );

  const combobox = useCombobox<Item>({
    items: shown,
    itemToString: (item) => item?.name ?? '',
    itemToKey: (item) => item?.id,
    inputValue: query,
    selectedItem: null,
    defaultHighlightedIndex: 0,
    // Nothing is highlighted while nothing matches: Downshift would point aria-activedescendant at an option that is not there.
    highlightedIndex: shown.length > 0 ? undefined : -1,
    onStateChange: pickOrSearch(onPick, setQuery),
  });

  const { isOpen, getLabelProps, getInputProps, openMenu } = combobox;

  return (
    <div className={fieldStyles.field}>
      <label {...getLabelProps({ className: fieldStyles.label })}>{label}</label>
      <ComboboxList
        combobox={combobox}
        items={shown}
        keyOf={(item) => item.id}
        control={
          <input
            {...getInputProps({
              className: fieldStyles.input,
              disabled,
              placeholder: t.screens.tagSetSearch(items.length),
              onFocus: () => {
                if (!isOpen) openMenu();
              },
            })}
          />
        }
      >
        {(item) => (
          <>
            {item.name}
            <span className={styles.tags}>{item.tags.join(' ')}</span>
          </>
        )}
      </ComboboxList>
    </div>
  );
}
