/**
 * The open thread's header: back, avatar, name with number (masked where the org says so),
 * group and our number's tag, the chat's actions (ChatActions), 'Create task' (the task panel's
 * New Task linked to this chat), the details-and-tickets toggle with the open-ticket badge, close.
 */
import { forwardRef, lazy, Suspense } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { maskPhone } from '#shared/chat/chat-access.rules.ts';
import { useSession } from '../../../app/session.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { chatDisplayName, chatNumber, formatPhone, isGroupChat } from '../../../lib/format.ts';
import { useTaskActions } from '../../tasks/index.ts';
import { Avatar } from './Avatar.tsx';
import { ChatActions } from './ChatActions.tsx';
import { SlaBadge } from './SlaBadge.tsx';
// issue 16: the 24-hour customer service window
import { useChatWindow } from '../../templates/index.ts';

/** issue 18: the AI agent's state and Take over / Hand back, loaded only for chats the agent has a state in (the /chats bundle budget). */
const AiThreadControls = lazy(() => import('../../ai/index.ts').then((m) => ({ default: m.AiThreadControls })));

/** The chat's display name (its number when it has none). */
export const threadName = (chat: Chat | null, chatId: string): string => (chat ? chatDisplayName(chat) : formatPhone(chatNumber(chatId)));

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
  const { org } = useSession();
  const { openNew: openNewTask } = useTaskActions();
  const name = threadName(chat, chatId);
  const group = chat ? isGroupChat(chat) : chatId.endsWith('@g.us');
  const win = useChatWindow(chat);
  const number = group ? null : formatPhone(org.mask_phone_numbers && org.role !== 'admin' ? maskPhone(chatNumber(chatId)) : chatNumber(chatId));
  return (
    <header className="thread-header">
      <button type="button" className="icon-btn back-btn" aria-label="Back to chats" onClick={() => navigate('/chats')}>
        <Icon name="back" />
      </button>
      <Avatar name={name} id={chatId} size={40} />
      <div className="thread-title">
        <h2 title={name}>{name}</h2>
        <div className="thread-sub">
          {number && number !== name && <span>{number}</span>}
          {number && number === name && chat?.chat_name == null && <span className="muted">No saved name</span>}
          {group && <span>Group</span>}
          {win.applies && (
            <span className={`window-tag${win.closed ? ' closed' : ''}`} data-testid="window-tag" title="WhatsApp lets you send free text for 24 hours after the customer's last message; after that, only approved templates">
              {win.text}
            </span>
          )}
          {chat?.org_phone && <span className="phone-tag" title="Your WhatsApp number in this chat">via {formatPhone(chat.org_phone)}</span>}
        </div>
      </div>
      {/* issue 17 §6: the chat's SLA (short; the tooltip names the target and the due time) */}
      {chat?.sla && <SlaBadge chat={chat} now={Date.now()} />}
      {chat?.ai_metadata && (
        <Suspense fallback={null}>
          <AiThreadControls orgId={org.org_id} chat={chat} />
        </Suspense>
      )}
      <ChatActions chatId={chatId} />
      <button
        type="button"
        className="icon-btn"
        aria-label="Create a task for this chat"
        title="Create task"
        data-testid="chat-create-task"
        onClick={() =>
          openNewTask({
            title: `Follow up with ${name}`.slice(0, 150),
            associated: { id: chatId, type: 'chat', object: { chat_id: chatId, org_id: org.org_id, org_phone: chat?.org_phone ?? null } },
          })
        }
      >
        <Icon name="task-add" />
      </button>
      <button
        ref={panelToggle}
        type="button"
        className={`icon-btn panel-toggle ${panelOpen ? 'active' : ''}`}
        aria-label={`Chat details and tickets${openTickets ? `, ${openTickets} open` : ''}`}
        title="Details and tickets"
        aria-pressed={panelOpen}
        aria-controls="chat-details-panel"
        data-testid="chat-details-toggle"
        onClick={onTogglePanel}
      >
        <Icon name="tickets" />
        {openTickets > 0 && <span className="icon-badge">{openTickets}</span>}
      </button>
      <button type="button" className="icon-btn close-thread" aria-label="Close chat (Esc)" title="Close chat (Esc)" onClick={() => navigate('/chats')}>
        <Icon name="close" />
      </button>
    </header>
  );
});
