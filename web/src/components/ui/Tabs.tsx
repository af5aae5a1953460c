/**
 * Tabs on Radix's Tabs primitive (WAI-ARIA tabs: arrow keys move between tabs, Home/End, the panel
 * follows the selected tab). Leave out the panels for a tab row that only filters a list.
 */
import type { ReactNode } from 'react';
import * as RadixTabs from '@radix-ui/react-tabs';

export interface TabItem {
  value: string;
  label: ReactNode;
  testId?: string;
  /** the panel; leave out for a filter row */
  panel?: ReactNode;
}

/** A controlled tab set: `value` is the selected tab, `onChange` is told of the choice. */
export function Tabs({
  items,
  value,
  onChange,
  label,
  className = 'tabs',
  listClassName = 'tab-list',
  tabClassName = 'tab',
}: {
  items: TabItem[];
  value: string;
  onChange: (value: string) => void;
  label: string;
  className?: string;
  /** classes of the row and of each tab (the selected tab also has data-state="active") */
  listClassName?: string;
  tabClassName?: string;
}) {
  return (
    <RadixTabs.Root value={value} onValueChange={onChange} className={className} activationMode="automatic">
      <RadixTabs.List className={listClassName} aria-label={label}>
        {items.map((t) => (
          <RadixTabs.Trigger key={t.value} value={t.value} className={tabClassName} data-testid={t.testId}>
            {t.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((t) =>
        t.panel === undefined ? null : (
          <RadixTabs.Content key={t.value} value={t.value} className="tab-panel">
            {t.panel}
          </RadixTabs.Content>
        ),
      )}
    </RadixTabs.Root>
  );
}
