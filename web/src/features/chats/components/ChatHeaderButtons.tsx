/**
 * The chat header's buttons (those that fit, see useHeaderFit): Assign with the assignee's avatar
 * and name, Labels, Snooze, Close / Reopen, and "⋯". Each names its shortcut.
 */
import type { RefObject } from 'react';
import { Icon } from '../../../components/ui/Icon.tsx';
import { Glyph, MemberAvatar } from './ChatBadges.tsx';
import { snoozeUntilText } from './SnoozeMenu.tsx';
import type { ChatPop } from './chatMenuItems.ts';

type Btn = RefObject<HTMLButtonElement | null>;

/** The buttons; `onMore` gets the "⋯" button's box to place the menu under it. */
export function ChatHeaderButtons({
  refs,
  inHeader,
  pop,
  menuOpen,
  open,
  assignee,
  assigneeName,
  assignRefused,
  labelCount,
  snoozedUntil,
  closed,
  onToggleClose,
  onMore,
  moreTitle,
}: {
  refs: { assign: Btn; labels: Btn; snooze: Btn; more: Btn };
  inHeader: Record<'assign' | 'labels' | 'snooze' | 'close', boolean>;
  pop: ChatPop | null;
  menuOpen: boolean;
  open: (p: ChatPop) => void;
  assignee: string | null;
  assigneeName: string | null;
  assignRefused: string | null;
  labelCount: number;
  snoozedUntil: number | null;
  closed: boolean;
  onToggleClose: () => void;
  onMore: (box: DOMRect) => void;
  moreTitle: string;
}) {
  return (
    <>
      {inHeader.assign && (
        <button
          ref={refs.assign}
          type="button"
          className={`chat-action-btn ${assignee ? 'set' : ''}`}
          aria-haspopup="dialog"
          aria-expanded={pop === 'assign'}
          aria-label={assigneeName ? `Assigned to ${assigneeName}. Change assignee (A)` : 'Assign (A)'}
          title={assignRefused ?? (assigneeName ? `Assigned to ${assigneeName} (A)` : 'Assign (A)')}
          aria-disabled={assignRefused ? true : undefined}
          data-testid="chat-assign"
          data-assignee={assignee ?? ''}
          onClick={() => open('assign')}
        >
          {assignee ? <MemberAvatar email={assignee} name={assigneeName ?? assignee} size={22} /> : <Glyph name="user" />}
          <span className="chat-action-text">{assigneeName ?? 'Assign'}</span>
        </button>
      )}
      {inHeader.labels && (
        <button
          ref={refs.labels}
          type="button"
          className={`icon-btn ${labelCount ? 'on' : ''}`}
          aria-haspopup="dialog"
          aria-expanded={pop === 'labels'}
          aria-label={`Labels${labelCount ? `, ${labelCount} set` : ''} (L)`}
          title="Labels (L)"
          data-testid="chat-labels"
          onClick={() => open('labels')}
        >
          <Glyph name="tag" />
        </button>
      )}
      {inHeader.snooze && (
        <button
          ref={refs.snooze}
          type="button"
          className={`icon-btn ${snoozedUntil ? 'on' : ''}`}
          aria-haspopup="dialog"
          aria-expanded={pop === 'snooze'}
          aria-label={snoozedUntil ? `Snoozed ${snoozeUntilText(snoozedUntil)}. Change (S)` : 'Snooze (S)'}
          title={snoozedUntil ? `Snoozed ${snoozeUntilText(snoozedUntil)} (S)` : 'Snooze (S)'}
          data-testid="chat-snooze"
          onClick={() => open('snooze')}
        >
          <Glyph name="clock" />
        </button>
      )}
      {inHeader.close && (
        <button
          type="button"
          className={`icon-btn ${closed ? 'on' : ''}`}
          aria-label={closed ? 'Reopen chat (C)' : 'Close chat for everyone (C)'}
          title={closed ? 'Reopen (C)' : 'Close (C)'}
          data-testid="chat-close"
          data-closed={closed ? 'true' : 'false'}
          onClick={onToggleClose}
        >
          <Glyph name={closed ? 'reopen' : 'check'} />
        </button>
      )}
      <button
        ref={refs.more}
        type="button"
        className="icon-btn"
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        aria-label="More chat actions"
        title={moreTitle}
        data-testid="chat-more"
        onClick={(e) => onMore(e.currentTarget.getBoundingClientRect())}
      >
        <Icon name="more" />
      </button>
    </>
  );
}
