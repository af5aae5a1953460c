/**
 * A toolbar on Radix's Toolbar primitive: one Tab stop for its buttons, arrow keys (Left / Right,
 * Home / End, looping) move between them and skip disabled ones (WAI-ARIA toolbar pattern). Form
 * fields inside it (selects, text boxes, checkboxes) stay ordinary Tab stops and keep their own
 * arrow keys. Used by the bulk-action bars of /list, /tickets and the task panel.
 */
import type { ComponentProps, ReactNode } from 'react';
import * as RadixToolbar from '@radix-ui/react-toolbar';

/** The row: `label` names it for screen readers. */
export function Toolbar({ label, children, className = 'toolbar', testId }: { label: string; children: ReactNode; className?: string; testId?: string }) {
  return (
    <RadixToolbar.Root className={className} aria-label={label} data-testid={testId} loop>
      {children}
    </RadixToolbar.Root>
  );
}

/**
 * A button of a {@link Toolbar} (takes every <button> prop, `ref` included; `type` defaults to
 * "button"). Wraps a menu trigger too: `<DropdownMenu.Trigger asChild><ToolbarButton/></…>`.
 */
export function ToolbarButton({ className = 'btn', ...props }: ComponentProps<'button'>) {
  return <RadixToolbar.Button className={className} {...props} />;
}

/** A thin divider between groups of a {@link Toolbar}. */
export function ToolbarSeparator() {
  return <RadixToolbar.Separator className="toolbar-sep" />;
}
