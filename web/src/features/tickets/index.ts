/**
 * The tickets feature's public surface: what other features (chats, tasks, settings) may use.
 * Everything else under features/tickets is internal (eslint.config.js enforces it).
 */
export { TicketChip } from './components/TicketChip.tsx';
export { AttachTicketDialog, CreateTicketDialog } from './components/TicketDialogs.tsx';
export { ChatTicketsPanel } from './components/ChatTicketsPanel.tsx';
export { LabelChip, PriorityTag } from './components/fields.tsx';
export { TicketsProvider, useTickets } from './hooks/useTickets.tsx';
export { labelTextColor, PRIORITY_OPTIONS, ticketRef, upsertChatTicket } from './api/tickets.ts';
