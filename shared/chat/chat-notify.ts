import { notifyMember } from '../notification/notification.ts';

/**
 * In-app notifications of the chat workflow (issue 4): assignment, and a snoozed chat coming back.
 * Sent to one member through the notification port (stored row + `notification.created`, which the
 * realtime fan-out pushes only to that member).
 */

interface ChatLike {
  org_id: string;
  chat_id: string;
  chat_name?: string | null;
  assigned_to?: string | null;
}

const nameOf = (c: ChatLike) => c.chat_name || c.chat_id.replace(/@.*$/, '');

/** Tell the new assignee a chat was assigned to them (not when they assigned it to themselves). */
export async function notifyAssigned(chat: ChatLike, by: string): Promise<void> {
  if (!chat.assigned_to || chat.assigned_to.toLowerCase() === by.toLowerCase()) return;
  await notifyMember(chat.org_id, chat.assigned_to, {
    kind: 'assigned',
    title: 'Chat assigned to you',
    body: `${by} assigned ${nameOf(chat)} to you`,
    chat_id: chat.chat_id,
    actor: by,
  });
}

/**
 * Tell the assignee a snoozed chat is back in the inbox.
 * @param why 'time': the snooze ended; 'message': the customer wrote again
 */
export async function notifyChatBack(chat: ChatLike, why: 'time' | 'message'): Promise<void> {
  if (!chat.assigned_to) return;
  await notifyMember(chat.org_id, chat.assigned_to, {
    kind: 'snooze_woke',
    title: 'Snoozed chat is back',
    body: why === 'time' ? `${nameOf(chat)}: the snooze ended` : `${nameOf(chat)} wrote again`,
    chat_id: chat.chat_id,
    actor: 'system',
  });
}
