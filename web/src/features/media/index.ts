/** The media feature's public surface: a message's media (bubble, download) for the chat thread. */
export { MediaBody, useDownload } from './components/Media.tsx';
