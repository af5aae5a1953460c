/**
 * One file of the /media grid: images as thumbnails, video as a play tile (its frame when the
 * server made one), audio, voice notes and documents as tiles with name and size; chat and day under it.
 */
import type { MediaItem } from '#shared/media/media.schemas.ts';
import { formatDay } from '#shared/task/task.rules.ts';
import { chatNumber, exactTime, MEDIA_NAMES } from '../../../lib/format.ts';
import { fileSize } from '../../chats/index.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import { Tooltip } from '../../../components/ui/Tooltip.tsx';
import { absoluteUrl } from './mediaUrls.ts';

/** The tile of `item`; a click opens the viewer. */
export function MediaTile({ item, onOpen }: { item: MediaItem; onOpen: () => void }) {
  const name = MEDIA_NAMES[item.message_type] ?? item.message_type;
  const visual = item.message_type === 'image' || item.message_type === 'video';
  // a video's tile shows its frame when the server made one (ffmpeg)
  const src = item.message_type === 'image' ? (item.thumbnail_url ?? item.url) : item.message_type === 'video' ? item.thumbnail_url : null;
  const label = `Open ${name.toLowerCase()}${item.filename ? ` ${item.filename}` : ''} from ${item.chat_name || chatNumber(item.chat_id)}`;
  // the exact time on hover or focus (the tile shows the day)
  return (
    <Tooltip content={exactTime(item.timestamp)}>
      <button type="button" className={`media-tile ${visual ? 'visual' : 'file'}`} data-testid="media-tile" data-type={item.message_type} aria-label={label} onClick={onOpen}>
        {visual ? (
          <span className="media-tile-visual">
            {src ? <img src={absoluteUrl(src)} alt="" loading="lazy" decoding="async" /> : null}
            {item.message_type === 'video' && (
              <span className="media-play" aria-hidden="true">
                ▶
              </span>
            )}
          </span>
        ) : (
          <span className="media-tile-file">
            <span className="media-tile-icon" aria-hidden="true">
              {item.message_type === 'ptt' ? '🎤' : item.message_type === 'audio' ? '🎵' : <Icon name="file" size={28} />}
            </span>
            <span className="media-tile-name">{item.filename ?? name}</span>
            <span className="media-tile-size">{[fileSize(item.size), item.message_type === 'document' ? null : name].filter(Boolean).join(' · ')}</span>
          </span>
        )}
        <span className="media-tile-meta">
          <span className="media-tile-chat">{item.chat_name || chatNumber(item.chat_id)}</span>
          <span className="media-tile-date">{formatDay(item.timestamp)}</span>
        </span>
      </button>
    </Tooltip>
  );
}
