/**
 * The body of a bubble for every message_type. Everything is rendered as text (React escapes it);
 * media is drawn by Media.tsx (thumbnail, player or file row by download state). `content` is the type-specific object the
 * API keeps (Cloud API shapes: content.location, content.contacts, content.button, content.interactive,
 * content.unsupported), read defensively since it is free-form.
 */
import type { Message } from '#shared/message/message.schemas.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import { MediaBody } from '../../media/index.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : undefined);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

function Text({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return <p className="msg-text">{text}</p>;
}

function LocationCard({ m }: { m: Message }) {
  const loc = obj(m.content?.location) ?? {};
  const lat = num(loc.latitude);
  const lng = num(loc.longitude);
  const name = str(loc.name);
  const address = str(loc.address);
  const hasPoint = lat !== undefined && lng !== undefined;
  return (
    <div className="rich-card">
      <div className="rich-title">
        <Icon name="pin" size={16} /> {name ?? 'Location'}
      </div>
      {address && <div className="rich-line">{address}</div>}
      {hasPoint ? (
        <>
          <div className="rich-line mono">
            {lat.toFixed(5)}, {lng.toFixed(5)}
          </div>
          <a className="rich-link" href={`https://www.google.com/maps/search/?api=1&query=${lat},${lng}`} target="_blank" rel="noopener noreferrer">
            Open in Google Maps
          </a>
        </>
      ) : (
        !address && !name && <div className="rich-line muted">No coordinates were sent.</div>
      )}
    </div>
  );
}

function contactName(c: Obj): string {
  const n = obj(c.name);
  const formatted = str(n?.formatted_name);
  if (formatted) return formatted;
  const parts = [str(n?.first_name), str(n?.middle_name), str(n?.last_name)].filter(Boolean);
  return parts.length ? parts.join(' ') : 'Unnamed contact';
}

function ContactsCard({ m }: { m: Message }) {
  const list = Array.isArray(m.content?.contacts) ? (m.content.contacts as unknown[]).map(obj).filter((c): c is Obj => !!c) : [];
  if (list.length === 0) return <Text text={m.body ?? '👤 Contact card (no details were sent)'} />;
  return (
    <div className="rich-card">
      {list.map((c, i) => {
        const phones = Array.isArray(c.phones) ? (c.phones as unknown[]).map(obj).filter((p): p is Obj => !!p) : [];
        return (
          <div className="contact" key={i}>
            <div className="rich-title">👤 {contactName(c)}</div>
            {phones.length === 0 && <div className="rich-line muted">No phone number</div>}
            {phones.map((p, j) => {
              const phone = str(p.phone) ?? (str(p.wa_id) ? `+${str(p.wa_id)}` : undefined);
              return (
                <div className="rich-line" key={j}>
                  {phone ?? 'Unknown number'}
                  {str(p.type) ? <span className="muted"> · {str(p.type)}</span> : null}
                </div>
              );
            })}
          </div>
        );
      })}
    </div>
  );
}

function InteractiveReply({ m }: { m: Message }) {
  const inter = obj(m.content?.interactive);
  const reply = obj(inter?.button_reply) ?? obj(inter?.list_reply) ?? obj(inter?.nfm_reply);
  const title = str(reply?.title) ?? m.body;
  const description = str(reply?.description);
  return (
    <div className="reply-chip-block">
      <div className="rich-line muted small">{obj(inter?.list_reply) ? 'Chose from a list' : 'Tapped a button'}</div>
      <Text text={title ?? 'Interactive reply'} />
      {description && <div className="rich-line muted">{description}</div>}
    </div>
  );
}

export function MessageContent({ m }: { m: Message }) {
  if (m.is_deleted) return <p className="msg-text muted deleted">🚫 This message was deleted</p>;
  switch (m.message_type) {
    case 'text':
      return <Text text={m.body ?? ''} />;
    case 'image':
    case 'video':
    case 'audio':
    case 'ptt':
    case 'document':
    case 'sticker':
      return <MediaBody m={m} />;
    case 'location':
      return <LocationCard m={m} />;
    case 'contacts':
      return <ContactsCard m={m} />;
    case 'button': {
      const text = str(obj(m.content?.button)?.text) ?? m.body;
      return (
        <div className="reply-chip-block">
          <div className="rich-line muted small">Tapped a button</div>
          <Text text={text ?? 'Button reply'} />
        </div>
      );
    }
    case 'interactive':
      return <InteractiveReply m={m} />;
    case 'unsupported': {
      const type = str(obj(m.content?.unsupported)?.type) ?? 'unknown';
      // the Cloud API tells of a customer's edit without its text or the message it changed (whatsapp-protocols.md B.9)
      if (type === 'edit') return <p className="msg-text muted" data-testid="unsupported-edit">✏️ The customer edited a message. WhatsApp does not share edits with this number’s connection (Cloud API).</p>;
      return <p className="msg-text muted">⚠️ Unsupported message (type {type})</p>;
    }
    case 'order':
      return <p className="msg-text">🛒 Order{m.body ? `: ${m.body}` : ' (details cannot be shown yet)'}</p>;
    default:
      return m.body ? <Text text={m.body} /> : <p className="msg-text muted">Message of type “{m.message_type}” (cannot be shown yet)</p>;
  }
}
