/**
 * A dropdown menu on Radix's DropdownMenu primitive: a trigger and its items, with arrow keys,
 * Home/End, type-ahead, Esc and focus return. For a menu opened at a point (a right click on a
 * message) use `MessageMenu` in Menu.tsx.
 */
import type { ReactElement } from 'react';
import * as RadixMenu from '@radix-ui/react-dropdown-menu';

export interface DropdownItem {
  id: string;
  label: string;
  testId?: string;
  disabled?: boolean;
  danger?: boolean;
  onSelect: () => void;
}

/** `trigger` opens a menu of `items` (in a portal, kept on screen). */
export function DropdownMenu({
  trigger,
  items,
  label,
  testId,
  align = 'end',
}: {
  trigger: ReactElement;
  items: DropdownItem[];
  label: string;
  testId?: string;
  align?: 'start' | 'center' | 'end';
}) {
  return (
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger asChild>{trigger}</RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content className="menu dropdown-menu" aria-label={label} data-testid={testId} align={align} sideOffset={4} collisionPadding={8} loop>
          {items.map((it) => (
            <RadixMenu.Item key={it.id} className={`menu-item ${it.danger ? 'danger' : ''}`} disabled={it.disabled} data-testid={it.testId} onSelect={it.onSelect}>
              {it.label}
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
