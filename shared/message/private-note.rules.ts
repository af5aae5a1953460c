/**
 * Pure rules of private notes and their @mentions (issue 4; spec §3 Message.is_private_note),
 * shared by the API (what a mention notification says) and the composer / bubble in the web app
 * (the '@' picker, inserting a mention, highlighting mentions). A mention is written in the note's
 * text as '@' + the member's label (their name, else their email) and recorded by email.
 */

/** Longest text of a mention notification (characters, '…' included). */
export const NOTE_EXCERPT_CHARS = 120;

/** Most members one note may mention. */
export const MAX_MENTIONS = 20;

/** Longest text typed after '@' that still counts as picking a member. */
const MAX_QUERY = 40;

/** A member as the picker and the note know them. */
export interface MentionMember {
  email: string;
  member_name?: string | null;
}

/** One mention recorded on a note: who, and the label written after '@' in its text. */
export interface NoteMention {
  email: string;
  name: string;
}

/** The label of a member in a note ('@' + this): their name, else their email. */
export const mentionLabel = (m: MentionMember): string => m.member_name?.trim() || m.email;

/** Title of the notification a mentioned member gets (issue 4). */
export const mentionTitle = (authorLabel: string): string => `${authorLabel} mentioned you`;

/** The note's text for a notification: whitespace collapsed, cut to NOTE_EXCERPT_CHARS with '…'. */
export function noteExcerpt(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text.length > NOTE_EXCERPT_CHARS ? `${text.slice(0, NOTE_EXCERPT_CHARS - 1)}…` : text;
}

/**
 * The '@…' being typed at the caret, if any: an '@' at the start or after whitespace, followed by
 * up to 40 characters without a line break or another '@', not starting or ending with a space.
 * @returns the index of the '@' and the text typed after it, or null
 */
export function activeMentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0 || (at > 0 && !/\s/.test(before[at - 1]!))) return null;
  const query = before.slice(at + 1);
  // a space right after '@' or at the caret ends it (an inserted mention ends with one)
  if (query.length > MAX_QUERY || /[\n@]/.test(query) || /^\s|\s$/.test(query)) return null;
  return { start: at, query };
}

/** Members whose name or email contains the query (case-insensitive), those starting with it first. */
export function filterMentionMembers<M extends MentionMember>(members: readonly M[], query: string): M[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...members];
  const starts: M[] = [];
  const contains: M[] = [];
  for (const m of members) {
    const label = mentionLabel(m).toLowerCase();
    const email = m.email.toLowerCase();
    if (label.startsWith(q) || email.startsWith(q)) starts.push(m);
    else if (label.includes(q) || email.includes(q)) contains.push(m);
  }
  return [...starts, ...contains];
}

/**
 * Replace the '@query' typed at `start..caret` by '@label ' (with a space after it).
 * @returns the new text and where the caret goes
 */
export function insertMention(text: string, start: number, caret: number, label: string): { text: string; caret: number } {
  const inserted = `@${label} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** The picked mentions whose '@label' is still in the text (edited-away ones drop out), one per email. */
export function mentionsInBody(body: string, picked: readonly NoteMention[]): NoteMention[] {
  const seen = new Set<string>();
  return picked.filter((m) => {
    const key = m.email.toLowerCase();
    if (seen.has(key) || !body.includes(`@${m.name}`)) return false;
    seen.add(key);
    return true;
  });
}

/** The note's text cut into plain runs and mentions (for highlighting); longer labels win on overlap. */
export function noteSegments(body: string, mentions: readonly NoteMention[] | null | undefined): Array<{ text: string; mention?: string }> {
  const labels = [...(mentions ?? [])].filter((m) => m.name).sort((a, b) => b.name.length - a.name.length);
  const out: Array<{ text: string; mention?: string }> = [];
  let plain = '';
  for (let i = 0; i < body.length; ) {
    const hit = body[i] === '@' ? labels.find((m) => body.startsWith(m.name, i + 1)) : undefined;
    if (hit) {
      if (plain) out.push({ text: plain });
      plain = '';
      out.push({ text: `@${hit.name}`, mention: hit.email });
      i += hit.name.length + 1;
    } else {
      plain += body[i];
      i += 1;
    }
  }
  if (plain) out.push({ text: plain });
  return out;
}
