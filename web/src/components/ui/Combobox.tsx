/**
 * A filterable list with type-ahead (WAI-ARIA combobox with a listbox): typing narrows the options,
 * Up/Down move the active option (focus stays in the search box), Enter picks, a click picks.
 * Esc is left to the surrounding popover. Used by {@link MemberPicker}; callers with other data
 * build their options the same way.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';

export interface ComboboxOption<V> {
  key: string;
  value: V;
  label: ReactNode;
  /** a second, muted line */
  sub?: ReactNode;
  /** before the label (an avatar) */
  leading?: ReactNode;
  /** extra attributes for the option element (data-*) */
  data?: Record<string, string>;
}

/**
 * The search box and its listbox. `query` / `onQuery` are controlled so the caller filters (and may
 * put extra options first); `selected` marks the current value with a tick.
 */
export function Combobox<V>({
  options,
  query,
  onQuery,
  onPick,
  isSelected,
  label,
  placeholder,
  searchLabel,
  empty,
  inputTestId,
  optionTestId,
  className = '',
}: {
  options: ComboboxOption<V>[];
  query: string;
  onQuery: (q: string) => void;
  onPick: (value: V) => void;
  isSelected: (value: V) => boolean;
  /** the listbox's accessible name */
  label: string;
  placeholder: string;
  searchLabel: string;
  /** shown when nothing matches */
  empty: ReactNode;
  inputTestId?: string;
  optionTestId?: string;
  className?: string;
}) {
  const [active, setActive] = useState(0);
  const listId = useId();
  useEffect(() => setActive(0), [query]);
  const current = Math.min(active, Math.max(0, options.length - 1));
  return (
    <div className={`combobox ${className}`}>
      <input
        type="search"
        role="combobox"
        className="pop-search"
        placeholder={placeholder}
        aria-label={searchLabel}
        aria-controls={listId}
        aria-expanded="true"
        aria-autocomplete="list"
        aria-activedescendant={options[current] ? `${listId}-${current}` : undefined}
        autoComplete="off"
        value={query}
        data-testid={inputTestId}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive(Math.min(options.length - 1, current + 1));
          else if (e.key === 'ArrowUp') setActive(Math.max(0, current - 1));
          else if (e.key === 'Home' && e.ctrlKey) setActive(0);
          else if (e.key === 'End' && e.ctrlKey) setActive(options.length - 1);
          else if (e.key === 'Enter' && options[current]) onPick(options[current].value);
          else return;
          e.preventDefault();
        }}
      />
      <ul className="pop-list" role="listbox" id={listId} aria-label={label}>
        {options.length === 0 && <li className="muted small pop-empty">{empty}</li>}
        {options.map((o, i) => {
          const on = isSelected(o.value);
          return (
            <li
              key={o.key}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={on}
              className={`pop-item ${i === current ? 'active' : ''} ${on ? 'current' : ''}`}
              data-testid={optionTestId}
              {...o.data}
              onPointerEnter={() => setActive(i)}
              // keep focus in the search box
              onPointerDown={(e) => e.preventDefault()}
              onClick={() => onPick(o.value)}
            >
              {o.leading}
              <span className="pop-item-main">
                <span>{o.label}</span>
                {o.sub && <span className="muted small">{o.sub}</span>}
              </span>
              {on && (
                <span className="pop-check" aria-hidden="true">
                  ✓
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
