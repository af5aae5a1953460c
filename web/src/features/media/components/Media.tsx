/**
 * Inbound media in a bubble (spec §9: thumbnails 120x80; viewer for image, video, audio, ptt,
 * document). The message's `media.status` says what to draw: absent, 'pending' or 'retrying' =
 * downloading (with the reason while retrying), 'failed' = the reason in words, 'stored' = the
 * file, whose short-lived URLs come from GET …/messages/{unique_id}/media (fetched when shown and
 * again once they expire).
 * - image / sticker: the 120x80 thumbnail (the file itself when there is no thumbnail); click
 *   opens the lightbox (zoom up to 4x the device pixel ratio, Esc closes);
 * - video: a 120x80 play tile opening the viewer with a player;
 * - audio / ptt: an inline <audio> player;
 * - document: a file row with Download (fetched and saved under its file name; spec §8 toasts).
 * The viewer is a carousel: opened from a bubble it walks the chat's files (GET /media?chat_id=…,
 * oldest on the left); the /media page opens it over its filtered list (web/src/media/MediaPage.tsx).
 */
import './media.css';

export { DOWNLOAD_FAILED, DOWNLOAD_OK, absoluteUrl, downloadMessageMedia, useDownload, type MediaRef } from './mediaUrls.ts';
export { MediaBody, mediaState } from './MediaBody.tsx';
export { ChatMediaViewer } from './ChatMediaViewer.tsx';
export { libraryViewerItem, type ViewerItem } from './viewerItems.ts';
export { MediaViewer } from './MediaViewer.tsx';
