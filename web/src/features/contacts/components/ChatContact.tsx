/**
 * The contact section of a 1:1 chat's details panel (issue 41 §7), loaded lazily by the thread so
 * the /chats bundle does not grow: the customer's name, WhatsApp username, number or 'Number not
 * shared', and the identifiers WhatsApp gave with their history (GET /contacts/{contact_id}, the
 * same TanStack Query entry as the /contacts panel), with a link to the contact. Viewers who may
 * not open /contacts, or who see masked numbers (contact ids are sealed for them), get the chat's
 * own identity without history.
 */
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { mustMask } from '#shared/chat/chat-access.rules.ts';
import { chatIdOfContactId } from '#shared/contact/identity.rules.ts';
import { pageAccess } from '#shared/org/permissions.rules.ts';
import { useSession } from '../../../app/session.tsx';
import { chatDisplayName, chatUsername, customerNumber, isGroupChat } from '../../../lib/format.ts';
import { contactKeys, contactsApi } from '../api/contacts.ts';
import { IdentifierList, IdentityFacts, IDENTITY_WORDS } from './ContactIdentity.tsx';
import './contacts.css';

/** Words of the section. */
const TEXT = {
  title: 'Contact',
  open: 'Open contact',
  openLabel: (name: string) => `Open the contact ${name}`,
  loading: 'Loading the contact’s identifiers…',
} as const;

/** The contact id of a 1:1 chat: the customer among its members (whose own chat it is), else the first. */
function contactIdOf(chat: Chat): string | null {
  const members = Object.values(chat.members ?? {});
  return (members.find((m) => chatIdOfContactId(m.contact_id) === chat.chat_id) ?? members[0])?.contact_id ?? null;
}

export function ChatContact({ chat }: { chat: Chat }) {
  const { org, user } = useSession();
  const masked = mustMask(!!org.mask_phone_numbers, { email: user.email, role: org.role });
  const contactId = contactIdOf(chat);
  const canRead = !masked && !!contactId && pageAccess(org.role, org.member_permissions, '/contacts');
  const q = useQuery({
    queryKey: contactKeys.detail(org.org_id, contactId ?? ''),
    queryFn: () => contactsApi.get(org.org_id, contactId!),
    enabled: canRead,
    retry: false,
  });
  if (isGroupChat(chat) || chat.has_access === false) return null;

  const name = chatDisplayName(chat, masked);
  const contact = q.data?.contact;
  const username = chatUsername(chat) ?? contact?.username ?? null;
  const number = customerNumber(chat, masked);
  const numbers = contact ? contact.numbers : number ? [number.replace(/^\+/, '')] : [];
  const fallback: Array<[keyof typeof IDENTITY_WORDS.kinds, string]> = [];
  if (number) fallback.push(['phone', number]);
  if (chat.identity?.user_id) fallback.push(['bsuid', chat.identity.user_id]);
  if (chat.identity?.parent_user_id) fallback.push(['parent_bsuid', chat.identity.parent_user_id]);

  return (
    <section className="details-section chat-contact" aria-labelledby="chat-contact-title" data-testid="chat-contact">
      <div className="chat-contact-head">
        <h3 id="chat-contact-title">{TEXT.title}</h3>
        {contact && (
          <Link to={`/contacts?contact=${encodeURIComponent(contact.contact_id)}`} className="chat-contact-open" aria-label={TEXT.openLabel(name)} data-testid="chat-contact-open">
            {TEXT.open}
          </Link>
        )}
      </div>
      <p className="chat-contact-name">{contact?.display_name ?? name}</p>
      <dl className="contact-facts">
        <IdentityFacts username={username} numbers={numbers} />
      </dl>
      <h4 className="chat-contact-sub">{IDENTITY_WORDS.identifiers}</h4>
      {q.data ? (
        <IdentifierList identifiers={q.data.identifiers} />
      ) : canRead && q.isPending ? (
        <p className="muted small">{TEXT.loading}</p>
      ) : (
        // the chat's own identity, without history (masked viewers, no /contacts access, or the contact could not be read)
        <ChatIdentifiers items={fallback} />
      )}
    </section>
  );
}

/** Identifiers known from the chat alone: kind and value, no dates. */
function ChatIdentifiers({ items }: { items: ReadonlyArray<[keyof typeof IDENTITY_WORDS.kinds, string]> }) {
  if (items.length === 0) return <p className="muted small">{IDENTITY_WORDS.noIdentifiers}</p>;
  return (
    <ul className="contact-identifiers" data-testid="contact-identifiers">
      {items.map(([kind, value]) => (
        <li key={kind} className="contact-identifier" data-testid="contact-identifier" data-kind={kind} data-replaced="false">
          <span className="contact-identifier-kind">{IDENTITY_WORDS.kinds[kind]}</span>
          <span className="contact-identifier-value mono">{value}</span>
        </li>
      ))}
    </ul>
  );
}
