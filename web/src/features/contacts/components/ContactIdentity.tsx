/**
 * A customer's WhatsApp identity (issue 41 §7), shown on the contact panel of /contacts and in a
 * chat's details panel: the username, the number or 'Number not shared', and the identifiers
 * WhatsApp gave for the person (phone numbers, business-scoped user ids, the parent user id) with
 * when each was first seen and, for one WhatsApp replaced (a new number, a new user id), what
 * replaced it and when. Numbers come masked from the API for members when the org masks them.
 */
import { format, formatDistanceToNow } from 'date-fns';
import type { ContactIdentifierView, ContactView } from '#shared/contact/contact.schemas.ts';
import { exactTime, formatPhone, IDENTITY_TEXT } from '../../../lib/format.ts';

/** Words of the identity views. */
export const IDENTITY_WORDS = {
  username: 'Username',
  number: 'Number',
  numbers: 'Numbers',
  numberNotShared: IDENTITY_TEXT.numberNotShared,
  numberNotSharedHint: 'WhatsApp has not shared this person’s phone number (they use a WhatsApp username). Replies still reach them.',
  unknownCustomer: IDENTITY_TEXT.unknownCustomer,
  identifiers: 'WhatsApp identifiers',
  kinds: { phone: 'Phone', bsuid: 'WhatsApp user id', parent_bsuid: 'Parent user id' } satisfies Record<ContactIdentifierView['kind'], string>,
  firstSeen: (when: string) => `First seen ${when}`,
  replaced: (by: string, on: string) => `Replaced by ${by} on ${on}`,
  replacedTitle: 'WhatsApp replaced this identifier; messages from the new one land in the same chat.',
  noIdentifiers: 'No WhatsApp identifiers recorded yet.',
} as const;

/** A contact's name: the edited or WhatsApp name, else the number, the username, or 'Unknown customer'. */
export const contactName = (c: Pick<ContactView, 'display_name' | 'phone' | 'username'>): string =>
  c.display_name ?? (c.phone ? formatPhone(c.phone) : (c.username ?? IDENTITY_WORDS.unknownCustomer));

/** 'BR.1773…' as is, numbers as '+5511…' (masked ones unchanged). */
const shownValue = (kind: ContactIdentifierView['kind'], value: string): string => (kind === 'phone' ? formatPhone(value) : value);

/** Date of a replacement: 'DD MMM YY' (spec §9). */
const shortDate = (ms: number): string => format(ms, 'd MMM yy');

const KIND_ORDER: Record<ContactIdentifierView['kind'], number> = { phone: 0, bsuid: 1, parent_bsuid: 2 };

/** Current identifiers first (phone, user id, parent id), then the replaced ones, newest first. */
export function sortIdentifiers(ids: readonly ContactIdentifierView[]): ContactIdentifierView[] {
  return [...ids].sort(
    (a, b) =>
      Number(a.replaced_by !== null) - Number(b.replaced_by !== null) ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      (b.replaced_at ?? b.first_seen_at) - (a.replaced_at ?? a.first_seen_at),
  );
}

/** The identifiers with their history ('First seen 3 days ago', 'Replaced by … on 12 May 26'). */
export function IdentifierList({ identifiers }: { identifiers: readonly ContactIdentifierView[] }) {
  if (identifiers.length === 0) return <p className="muted small">{IDENTITY_WORDS.noIdentifiers}</p>;
  return (
    <ul className="contact-identifiers" data-testid="contact-identifiers">
      {sortIdentifiers(identifiers).map((i) => {
        const replaced = i.replaced_by !== null;
        return (
          <li key={`${i.kind}|${i.value}`} className={`contact-identifier${replaced ? ' replaced' : ''}`} data-testid="contact-identifier" data-kind={i.kind} data-replaced={replaced ? 'true' : 'false'}>
            <span className="contact-identifier-kind">{IDENTITY_WORDS.kinds[i.kind]}</span>
            <span className="contact-identifier-value mono">{replaced ? <s>{shownValue(i.kind, i.value)}</s> : shownValue(i.kind, i.value)}</span>
            <span className="contact-identifier-when muted small" title={exactTime(i.first_seen_at)}>
              {IDENTITY_WORDS.firstSeen(formatDistanceToNow(i.first_seen_at, { addSuffix: true }))}
            </span>
            {replaced && (
              <span className="contact-identifier-replaced muted small" title={i.replaced_at ? `${IDENTITY_WORDS.replacedTitle} ${exactTime(i.replaced_at)}` : IDENTITY_WORDS.replacedTitle}>
                {IDENTITY_WORDS.replaced(shownValue(i.kind, i.replaced_by!), i.replaced_at ? shortDate(i.replaced_at) : '—')}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The username and number facts (<dt>/<dd> pairs for a `.contact-facts` list). */
export function IdentityFacts({ username, numbers }: { username: string | null; numbers: readonly string[] }) {
  return (
    <>
      <dt>{numbers.length > 1 ? IDENTITY_WORDS.numbers : IDENTITY_WORDS.number}</dt>
      {numbers.length > 0 ? (
        <dd data-testid="contact-phone">{numbers.map((n) => formatPhone(n)).join(', ')}</dd>
      ) : (
        <dd data-testid="contact-phone" className="contact-no-number" title={IDENTITY_WORDS.numberNotSharedHint}>
          {IDENTITY_WORDS.numberNotShared}
        </dd>
      )}
      {username && (
        <>
          <dt>{IDENTITY_WORDS.username}</dt>
          <dd data-testid="contact-username">{username}</dd>
        </>
      )}
    </>
  );
}
