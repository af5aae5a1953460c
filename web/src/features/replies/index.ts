// What other features may use of quick replies (issue 15 item 5).
export { replyKeys, repliesApi } from './api/replies.ts';
export { useReplyPicker, ReplyPicker } from './components/ReplyPicker.tsx';
