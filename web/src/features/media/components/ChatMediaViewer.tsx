/**
 * The viewer opened from a chat bubble: a carousel over the chat's files.
 */
import { useEffect, useState } from 'react';
import type { Message } from '#shared/message/message.schemas.ts';
import type { MediaUrlResponse } from '#shared/media/media.schemas.ts';
import type { MediaItem } from '#shared/media/media.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { MediaViewer } from './MediaViewer.tsx';
import { libraryViewerItem, messageViewerItem, type ViewerItem } from './viewerItems.ts';

/** Library pages read at most when the viewer gathers a chat's files around the one opened. */
const CHAT_MEDIA_PAGES = 5;

/**
 * The viewer opened from a chat bubble: a carousel over the chat's files (GET /media?chat_id=…),
 * oldest on the left as in WhatsApp, starting at the message opened. Until the list arrives (or
 * when the message is not in it) it shows just that message.
 */
export function ChatMediaViewer({ m, urls, onClose }: { m: Message; urls: MediaUrlResponse; onClose: () => void }) {
  const { org } = useSession();
  const first = messageViewerItem(m, urls);
  const [items, setItems] = useState<ViewerItem[]>([first]);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    let live = true;
    void (async () => {
      const all: MediaItem[] = [];
      let cursor: string | null = null;
      try {
        for (let n = 0; n < CHAT_MEDIA_PAGES; n++) {
          const page = await api.listMedia(org.org_id, { chat_id: m.chat_id, limit: 200, cursor });
          all.push(...page.items);
          cursor = page.cursor;
          if (!cursor || all.some((i) => i.unique_id === m.unique_id)) break;
        }
      } catch (e) {
        console.warn('chat media list failed', errorMessage(e));
        return;
      }
      if (!live) return;
      const list = all.reverse().map(libraryViewerItem);
      const at = list.findIndex((i) => i.unique_id === m.unique_id);
      if (at < 0) return; // not in the library (e.g. a sticker): the viewer shows just this file
      list[at] = first;
      setItems(list);
      setIndex(at);
    })();
    return () => {
      live = false;
    };
    // once per opening
  }, []);
  return <MediaViewer items={items} index={index} onIndex={setIndex} onClose={onClose} />;
}
