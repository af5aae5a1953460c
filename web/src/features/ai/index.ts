/**
 * The AI feature's public surface (issue 18): what the chats feature may use. The /ai page itself
 * is loaded lazily by the router (app/App.tsx).
 */
export { AiStateIcon, aiStateLabel, AiThreadControls, isAiAuthor } from './components/AiChatBits.tsx';
export { AddToFaqDialog } from './components/AddToFaqDialog.tsx';
