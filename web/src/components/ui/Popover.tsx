/**
 * Popovers on Radix's Popover primitive: positioned next to their anchor (flipping and shifting to
 * stay on screen), closed by Esc or a click outside, focus moved in on open and back on close.
 *
 * - {@link Popover}: a trigger element plus its content (the common case).
 * - {@link AnchoredPopover}: content opened by code next to an element that is not its trigger
 *   (the chat header opens pickers from a header button or from the "⋯" menu).
 */
import { useMemo, type ReactElement, type ReactNode } from 'react';
import * as RadixPopover from '@radix-ui/react-popover';

type Side = 'top' | 'right' | 'bottom' | 'left';
type Align = 'start' | 'center' | 'end';

interface ContentProps {
  /** accessible name of the popover (role=dialog) */
  label: string;
  testId?: string;
  className?: string;
  side?: Side;
  align?: Align;
  children: ReactNode;
}

/**
 * The portalled content both popovers share: placed 4px off its anchor, kept 8px inside the screen,
 * and Esc stops here (it closes this popover, not a dialog or panel behind it).
 */
function PopoverContent({
  label,
  testId,
  className = 'popover',
  side,
  align,
  children,
  ...rest
}: ContentProps & Omit<RadixPopover.PopoverContentProps, keyof ContentProps | 'onKeyDown'>) {
  return (
    <RadixPopover.Portal>
      <RadixPopover.Content
        {...rest}
        className={className}
        aria-label={label}
        data-testid={testId}
        side={side}
        align={align}
        sideOffset={4}
        collisionPadding={8}
        onKeyDown={(e) => e.key === 'Escape' && e.stopPropagation()}
      >
        {children}
      </RadixPopover.Content>
    </RadixPopover.Portal>
  );
}

/** A button (or any element) that toggles a popover. Controlled when `open` is given. */
export function Popover({
  trigger,
  open,
  onOpenChange,
  label,
  testId,
  className = 'popover',
  side = 'bottom',
  align = 'start',
  children,
}: ContentProps & { trigger: ReactElement; open?: boolean; onOpenChange?: (open: boolean) => void }) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <PopoverContent label={label} testId={testId} className={className} side={side} align={align}>
        {children}
      </PopoverContent>
    </RadixPopover.Root>
  );
}

/**
 * A popover that is open while mounted, placed at `anchor`. `onClose(true)` after Esc (the owner
 * puts focus back where it belongs), `onClose(false)` after a click outside (focus stays where the
 * click put it). A click on the anchor itself is left to the anchor's own handler (it toggles).
 * On open it focuses its first field or option, or itself with `focusContent`.
 */
export function AnchoredPopover({
  anchor,
  onClose,
  label,
  testId,
  className = 'popover',
  side = 'bottom',
  align = 'end',
  focusContent = false,
  children,
}: ContentProps & { anchor: HTMLElement | null; onClose: (restoreFocus: boolean) => void; focusContent?: boolean }) {
  const virtualRef = useMemo(() => ({ current: anchor ?? document.body }), [anchor]);
  return (
    <RadixPopover.Root open onOpenChange={(open) => !open && onClose(false)}>
      <RadixPopover.Anchor virtualRef={virtualRef} />
      <PopoverContent
        label={label}
        testId={testId}
        className={className}
        side={side}
        align={align}
        onOpenAutoFocus={(e) => {
          if (focusContent) {
            e.preventDefault();
            (e.currentTarget as HTMLElement | null)?.focus();
            return;
          }
          // the first field or option rather than the first button
          const first = (e.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>('input, button, select, [tabindex="0"]');
          if (first) {
            e.preventDefault();
            first.focus();
          }
        }}
        onCloseAutoFocus={(e) => e.preventDefault()}
        onEscapeKeyDown={(e) => {
          e.preventDefault();
          onClose(true);
        }}
        onInteractOutside={(e) => {
          if (anchor && e.target instanceof Node && anchor.contains(e.target)) e.preventDefault();
        }}
      >
        {children}
      </PopoverContent>
    </RadixPopover.Root>
  );
}
