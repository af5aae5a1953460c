/**
 * The open thread's header: back, avatar, the customer's name with their WhatsApp username and
 * number (masked where the org says so; 'Number not shared' when WhatsApp withholds it, issue 41),
 * the 24-hour window and, when the org has several numbers, our number's tag; then the tools: SLA, the AI agent's Take over / Hand
 * back, the chat's actions (ChatActions), 'Create task' (the task panel's New Task linked to this
 * chat), the details-and-tickets toggle with the open-ticket badge, close.
 *
 * The name keeps its room (issue 49 item 2): useHeaderFit moves tools into "⋯" or shows them as
 * icons before the name is cut, and the header grows rather than clip a line at its top.
 */
import { forwardRef, lazy, Suspense, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { mustMask } from '#shared/chat/chat-access.rules.ts';
import { useSession } from '../../../app/session.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import type { MenuItem } from '../../../components/ui/Menu.tsx';
import { chatDisplayName, chatUsername, customerNumber, formatPhone, IDENTITY_TEXT, isGroupChat } from '../../../lib/format.ts';
import { useTaskActions } from '../../tasks/index.ts';
import { useHeaderFit } from '../hooks/useHeaderFit.ts';
import { Avatar } from './Avatar.tsx';
import { ChatActions } from './ChatActions.tsx';
import { SlaBadge } from './SlaBadge.tsx';
// issue 16: the 24-hour customer service window
import { useChatWindow } from '../../templates/index.ts';

/** issue 18: the AI agent's state and Take over / Hand back, loaded only for chats the agent has a state in (the /chats bundle budget). */
const AiThreadControls = lazy(() => import('../../ai/index.ts').then((m) => ({ default: m.AiThreadControls })));

/** Words of the header. */
const TEXT = {
  back: 'Back to chats',
  numberNotShared: IDENTITY_TEXT.numberNotShared,
  numberNotSharedHint: 'WhatsApp has not shared this customer’s phone number (they use a WhatsApp username). Replies still reach them.',
  username: 'WhatsApp username',
  noSavedName: 'No saved name',
  group: 'Group',
  windowHint: "WhatsApp lets you send free text for 24 hours after the customer's last message; after that, only approved templates",
  via: (phone: string) => `via ${phone}`,
  viaHint: 'Your WhatsApp number in this chat',
  createTask: 'Create task',
  createTaskLabel: 'Create a task for this chat',
  followUp: (name: string) => `Follow up with ${name}`,
  details: 'Details and tickets',
  detailsLabel: (open: number) => `Chat details and tickets${open ? `, ${open} open` : ''}`,
  close: 'Close chat (Esc)',
} as const;

/** The chat's display name: its saved name, else the number, the WhatsApp username, or 'Unknown customer'. */
export const threadName = (chat: Chat | null, chatId: string): string => chatDisplayName(chat ?? { chat_id: chatId });

export interface ThreadHeaderProps {
  chatId: string;
  chat: Chat | null;
  panelOpen: boolean;
  onTogglePanel: () => void;
  /** open tickets of the chat (the toggle's badge) */
  openTickets: number;
}

export const ThreadHeader = forwardRef<HTMLButtonElement, ThreadHeaderProps>(function ThreadHeader({ chatId, chat, panelOpen, onTogglePanel, openTickets }, panelToggle) {
  const navigate = useNavigate();
  const { org, user } = useSession();
  const { openNew: openNewTask } = useTaskActions();
  const headerRef = useRef<HTMLElement>(null);
  const fit = useHeaderFit(headerRef);
  const masked = mustMask(!!org.mask_phone_numbers, { email: user.email, role: org.role });
  const subject = chat ?? { chat_id: chatId };
  const name = chatDisplayName(subject, masked);
  const group = isGroupChat(subject);
  const win = useChatWindow(chat);
  const number = customerNumber(subject, masked);
  const username = chatUsername(subject);
  // our number's tag, as on the chat list: only when the org has several numbers (or the chat went through several)
  const viaPhone = chat?.org_phone && (org.phones.length > 1 || (chat.chat_org_phones?.length ?? 0) > 1) ? chat.org_phone : null;
  const createTask = () =>
    openNewTask({
      title: TEXT.followUp(name).slice(0, 150),
      associated: { id: chatId, type: 'chat', object: { chat_id: chatId, org_id: org.org_id, org_phone: chat?.org_phone ?? null } },
    });
  const moreItems: MenuItem[] = fit.taskInHeader ? [] : [{ id: 'task', label: TEXT.createTask, testId: 'chat-action-task', onSelect: createTask }];

  return (
    <header ref={headerRef} className="thread-header" data-testid="thread-header">
      <button type="button" className="icon-btn back-btn" aria-label={TEXT.back} onClick={() => navigate('/chats')}>
        <Icon name="back" />
      </button>
      <Avatar name={name} id={chatId} size={40} />
      <div className="thread-title" data-fit="title">
        <h2 title={name} data-testid="thread-name">
          {name}
        </h2>
        <div className="thread-sub">
          <span className="thread-id" data-testid="thread-identity">
            {username && username !== name && (
              <span className="thread-username" title={TEXT.username} data-testid="thread-username">
                {username}
              </span>
            )}
            {number && number !== name && <span data-testid="thread-number">{number}</span>}
            {number && number === name && chat?.chat_name == null && <span className="muted">{TEXT.noSavedName}</span>}
            {!number && !group && (
              <span className="thread-no-number" title={TEXT.numberNotSharedHint} data-testid="thread-number-missing">
                {TEXT.numberNotShared}
              </span>
            )}
            {group && <span>{TEXT.group}</span>}
          </span>
          {(win.applies || viaPhone) && (
            <span className="thread-tags">
              {win.applies && (
                <span className={`window-tag${win.closed ? ' closed' : ''}`} data-testid="window-tag" title={TEXT.windowHint}>
                  <WindowText text={win.text} />
                </span>
              )}
              {viaPhone && (
                <span className="phone-tag" title={TEXT.viaHint}>
                  {TEXT.via(formatPhone(viaPhone))}
                </span>
              )}
            </span>
          )}
        </div>
      </div>
      <div className="thread-tools" data-fit="tools">
        {/* issue 17 §6: the chat's SLA (short; the tooltip names the target and the due time) */}
        {chat?.sla && <SlaBadge chat={chat} now={Date.now()} />}
        {chat?.ai_metadata && (
          <span className="thread-ai" data-fit="ai" data-text={fit.aiText ? 'true' : 'false'}>
            <Suspense fallback={null}>
              <AiThreadControls orgId={org.org_id} chat={chat} compact={!fit.aiText} />
            </Suspense>
          </span>
        )}
        <ChatActions chatId={chatId} fit={fit.actions} moreItems={moreItems} />
        {fit.taskInHeader && (
          <button type="button" className="icon-btn" data-fit="task" aria-label={TEXT.createTaskLabel} title={TEXT.createTask} data-testid="chat-create-task" onClick={createTask}>
            <Icon name="task-add" />
          </button>
        )}
        <button
          ref={panelToggle}
          type="button"
          className={`icon-btn panel-toggle ${panelOpen ? 'active' : ''}`}
          aria-label={TEXT.detailsLabel(openTickets)}
          title={TEXT.details}
          aria-pressed={panelOpen}
          aria-controls="chat-details-panel"
          data-testid="chat-details-toggle"
          onClick={onTogglePanel}
        >
          <Icon name="tickets" />
          {openTickets > 0 && <span className="icon-badge">{openTickets}</span>}
        </button>
        <button type="button" className="icon-btn close-thread" aria-label={TEXT.close} title={TEXT.close} onClick={() => navigate('/chats')}>
          <Icon name="close" />
        </button>
      </div>
    </header>
  );
});

/** 'Window closes in 23 h 59 min' that wraps, when it must, before the time and never inside it. */
function WindowText({ text }: { text: string }) {
  const m = /^(\D+?) (\d.*)$/.exec(text);
  if (!m) return <>{text}</>;
  return (
    <>
      {m[1]} <span className="window-time">{m[2]}</span>
    </>
  );
}
