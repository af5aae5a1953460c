/** The chats feature's public surface: the label chip (settings/labels) and message helpers. */
export { ChatLabelChip } from './components/ChatBadges.tsx';
export { fileSize } from './api/messageActions.ts';
