/**
 * issue 16: WhatsApp message templates — the public surface for other features. Light on purpose
 * (the /chats bundle imports it): the window hook and words, and the composer's template picker as a
 * lazy component (its own chunk). The templates page is routed by app/App.tsx (lazy).
 */
import { lazy } from 'react';

export { useChatWindow, type ChatWindow } from './useChatWindow.ts';
export { windowText } from './window.ts';
/** The composer's template mode (lazy: loaded when a chat's window is closed). */
export const TemplateComposer = lazy(() => import('./TemplateComposer.tsx').then((m) => ({ default: m.TemplateComposer })));
export { templateKeys, templatesApi } from './api.ts';
/** Template picker with variables and preview (lazy: schedule dialogs load it when asked). */
export const TemplateFormLazy = lazy(() => import('./TemplateForm.tsx').then((m) => ({ default: m.TemplateForm })));
