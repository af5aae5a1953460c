/**
 * The composer's attachment pieces (issue 5 "Media out"): the paperclip button with its file
 * picker, and the preview strip of the chosen file (image preview or file row, name and size, a
 * progress bar while it uploads, Cancel during the upload and Remove before it).
 */
import { useEffect, useMemo, useRef } from 'react';
import { OUTBOUND_ACCEPT, type OutboundMediaType } from '#shared/media/media.rules.ts';
import { fileSize } from '../api/messageActions.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import './attachments.css';

export interface Attachment {
  file: File;
  type: OutboundMediaType;
}

/** Paperclip button opening the file picker (only the types WhatsApp can send). */
export function AttachButton({ disabled, onPick }: { disabled?: boolean; onPick: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="attach-btn" aria-label="Attach a file" title="Attach a photo, video, audio or document" disabled={disabled} onClick={() => input.current?.click()} data-testid="composer-attach">
        <svg width={22} height={22} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
        </svg>
      </button>
      <input
        ref={input}
        type="file"
        hidden
        accept={OUTBOUND_ACCEPT}
        data-testid="composer-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = ''; // picking the same file again still fires change
          if (file) onPick(file);
        }}
      />
    </>
  );
}

const TYPE_NAMES: Record<OutboundMediaType, string> = { image: 'Photo', video: 'Video', audio: 'Audio', document: 'Document' };

/** The chosen file above the composer; `progress` (0..1) while it uploads, null before. */
export function AttachmentPreview({ attachment, progress, onRemove, onCancel }: { attachment: Attachment; progress: number | null; onRemove: () => void; onCancel: () => void }) {
  const { file, type } = attachment;
  const preview = useMemo(() => (type === 'image' ? URL.createObjectURL(file) : null), [file, type]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const uploading = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <div className="attachment-strip" data-testid="attachment-preview" aria-label={`${TYPE_NAMES[type]} to send`}>
      <div className="attachment-thumb">
        {preview ? <img src={preview} alt={file.name} data-testid="attachment-image" /> : <Icon name="file" size={28} />}
      </div>
      <div className="attachment-info">
        <span className="attachment-name" title={file.name}>
          {file.name}
        </span>
        <span className="attachment-meta">
          {TYPE_NAMES[type]} · {fileSize(file.size)}
          {uploading && ` · ${percent < 100 ? `Uploading ${percent}%` : 'Sending…'}`}
        </span>
        {uploading && (
          <div className="attachment-progress" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} data-testid="attachment-progress">
            <div style={{ width: `${percent}%` }} />
          </div>
        )}
      </div>
      {uploading ? (
        <button type="button" className="attachment-cancel" onClick={onCancel} data-testid="attachment-cancel">
          Cancel
        </button>
      ) : (
        <button type="button" className="icon-btn" aria-label="Remove attachment" onClick={onRemove} data-testid="attachment-remove">
          <Icon name="close" size={18} />
        </button>
      )}
    </div>
  );
}
