import styles from './quick-chips.module.css';

interface QuickChipsProps<Item extends { id: number; name: string }> {
  label: string;
  items: Item[];
  onPick: (item: Item) => void;
  disabled?: boolean;
}

/** Saved shortcuts (tag sets, profile groups) as one-click chips that fill a field; nothing when there are none. */
export function QuickChips<Item extends { id: number; name: string }>({ label, items, onPick, disabled }: QuickChipsProps<Item>) {
  if (items.length === 0) return null;
  return (
    <div className={styles.quick} role="group" aria-label={label}>
      <span className={styles.label}>{label}</span>
      {items.map((item) => (
        <button key={item.id} type="button" className={styles.chip} disabled={disabled} onClick={() => onPick(item)}>
          {item.name}
        </button>
      ))}
    </div>
  );
}
