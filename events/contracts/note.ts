import { z } from 'zod';
import { MessageSnapshot } from './message.ts';

/**
 * Contracts of the private-note events. A note is a message row (`is_private_note: true`) that
 * never goes to WhatsApp and never changes its chat row, so these carry no chat snapshot (the
 * chat list does not move): only the chat id and the note's message snapshot (`message`, as in message.updated).
 */
export const NoteSnapshot = MessageSnapshot.extend({ is_private_note: z.literal(true), author: z.string() });

/** note.created v1: a member wrote a private note in a chat (stored with ack 0, never sent). */
export const NoteCreatedV1 = z.object({ org_id: z.string(), chat_id: z.string(), message: NoteSnapshot });
/** note.deleted v1: its author deleted a note; the row stays as a tombstone (`is_deleted: true`, no body). */
export const NoteDeletedV1 = z.object({ org_id: z.string(), chat_id: z.string(), message: NoteSnapshot });
