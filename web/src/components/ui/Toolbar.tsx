/**
 * A toolbar on Radix's Toolbar primitive: one Tab stop for the whole row, arrow keys move between
 * its buttons (WAI-ARIA toolbar pattern). Used by the bars of actions over lists and media.
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

/** A button of a {@link Toolbar} (takes every <button> prop). */
export function ToolbarButton({ className = 'btn', ...props }: ComponentProps<'button'>) {
  return (
    <RadixToolbar.Button asChild>
      <button type="button" className={className} {...props} />
    </RadixToolbar.Button>
  );
}

/** A thin divider between groups of a {@link Toolbar}. */
export function ToolbarSeparator() {
  return <RadixToolbar.Separator className="toolbar-sep" />;
}
