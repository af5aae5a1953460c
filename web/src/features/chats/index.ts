/** The chats feature's public surface: the label chip (settings/labels), message helpers, and the org's chat counts and labels as query hooks (/list). */
export { ChatLabelChip } from './components/ChatBadges.tsx';
export { fileSize } from './api/messageActions.ts';
export { checkFile, mimeOf, put as putUpload, UploadCancelled } from './api/uploads.ts';
export { reloadChatCounts, useChatCounts, useChatLabels } from './hooks/useChatStore.ts';
export { PropertyFilter, usePropertyDefinitions } from './components/PropertyFilter.tsx';
