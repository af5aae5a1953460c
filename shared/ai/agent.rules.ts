import type { AiMetadata, AiSettings, ActivationState } from './ai.schemas.ts';
import type { Candidate } from './answer-port.ts';

/**
 * Pure rules of the AI agent's state machine and eligibility (issue 18 §3, §4, §6).
 * States: inactive -> (hand back) active -> (customer message) thinking -> active (answered) |
 * handed_off (below threshold); any -> paused (take over, or a human's reply; resumes by itself
 * at `paused_until`, or when handed back when it is null); 'inactive' by take-over with
 * activation 'inactive'. Epoch **ms** throughout.
 */

/** The author of the agent's messages and notes (Message.author), never a member's email. */
export const AI_AUTHOR = 'ai-agent@chorus.local';

/** The state a chat is in now: its ai_metadata, else the org's default activation. */
export function effectiveState(meta: Pick<AiMetadata, 'activation_state' | 'paused_until'> | null | undefined, settings: Pick<AiSettings, 'default_activation'>, now: number): ActivationState {
  if (!meta?.activation_state) return settings.default_activation === 'auto' ? 'active' : 'inactive';
  if (meta.activation_state === 'paused' && meta.paused_until != null && now >= meta.paused_until) return 'active';
  return meta.activation_state;
}

/** Is `now` inside the shift (settings.shift, in its time zone)? Always true when shifts are off. An end before the start spans midnight. */
export function inShift(shift: AiSettings['shift'], now: number): boolean {
  if (!shift.enabled) return true;
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: shift.timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(now));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  const minutes = Number(get('hour')) * 60 + Number(get('minute'));
  const [sh, sm] = shift.start.split(':').map(Number) as [number, number];
  const [eh, em] = shift.end.split(':').map(Number) as [number, number];
  const start = sh * 60 + sm;
  const end = eh * 60 + em;
  if (start <= end) return shift.days.includes(day) && minutes >= start && minutes < end;
  // overnight: the part after midnight belongs to the previous day's shift
  if (minutes >= start) return shift.days.includes(day);
  return minutes < end && shift.days.includes((day + 6) % 7);
}

export interface InboundFacts {
  from_me: boolean;
  is_private_note?: boolean | null;
  message_type: string;
  body?: string | null;
  phone_id: string;
  chat_type: 'user' | 'group' | 'other';
  internal_contact: boolean;
}

/**
 * Should the agent take up this customer message? `{ ok: true }` or the reason it does not
 * ('disabled' | 'phone_disabled' | 'not_text' | 'group' | 'internal_contact' | 'inactive' |
 * 'paused' | 'handed_off' | 'outside_shift'). 'disabled' and 'phone_disabled' are not audited.
 */
export function eligibility(settings: AiSettings, state: ActivationState, m: InboundFacts, now: number): { ok: true } | { ok: false; reason: string } {
  if (!settings.enabled) return { ok: false, reason: 'disabled' };
  if (settings.phones[m.phone_id] === false) return { ok: false, reason: 'phone_disabled' };
  if (m.from_me || m.is_private_note) return { ok: false, reason: 'not_customer' };
  if (m.message_type !== 'text' || !m.body?.trim()) return { ok: false, reason: 'not_text' };
  if (m.chat_type === 'group' && !settings.answer_groups) return { ok: false, reason: 'group' };
  if (m.internal_contact) return { ok: false, reason: 'internal_contact' };
  if (state === 'inactive' || state === 'paused' || state === 'handed_off') return { ok: false, reason: state };
  if (!inShift(settings.shift, now)) return { ok: false, reason: 'outside_shift' };
  return { ok: true };
}

/** Reasons that are not worth an audit row (the agent is simply off there). */
export const SILENT_REASONS = new Set(['disabled', 'phone_disabled', 'not_customer']);

/** A human's reply: the metadata after it (paused for the org's pause, or until handed back), or null when the agent was not on. */
export function afterHumanReply(meta: AiMetadata | null | undefined, settings: Pick<AiSettings, 'pause_after_human_minutes' | 'default_activation'>, who: string, now: number): AiMetadata | null {
  const state = effectiveState(meta, settings, now);
  if (state === 'inactive' || (state === 'paused' && meta?.paused_until == null)) return null;
  const paused_until = settings.pause_after_human_minutes > 0 ? now + settings.pause_after_human_minutes * 60_000 : null;
  return { activation_state: 'paused', paused_until, pending: null, reason: 'human_reply', updated_by: who, updated_at: now };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The collapsible audit note's text: first line is the summary (the thread shows it folded). */
export function auditNoteBody(d: { outcome: string; question: string; candidates: Candidate[]; answer: string | null; reason: string | null; confidence: number; latency_ms: number; adapter: string }): string {
  const head =
    d.outcome === 'answered'
      ? `AI agent answered (confidence ${pct(d.confidence)}, ${d.latency_ms} ms)`
      : d.outcome === 'passive'
        ? `AI agent suggests an answer (passive mode; confidence ${pct(d.confidence)}, ${d.latency_ms} ms)`
        : `AI agent handed off: ${handoffWhy(d.reason, d.confidence)} (${d.latency_ms} ms)`;
  const lines = [head, `Question: ${d.question}`];
  if (d.candidates.length) {
    lines.push('Pairs:');
    d.candidates.forEach((c, i) => lines.push(`${i + 1}. ${c.question} (${pct(c.score)}) [${c.faq_id}]`));
  } else lines.push('Pairs: none');
  lines.push(d.answer ? `Answer: ${d.answer}` : `No answer: ${handoffWhy(d.reason, d.confidence)}`);
  lines.push(`Adapter: ${d.adapter}`);
  return lines.join('\n');
}

/** Why the agent handed off, in words (the private note and the notification). */
export function handoffWhy(reason: string | null, confidence: number): string {
  switch (reason) {
    case 'no_pairs':
      return 'the knowledge base has no pairs yet';
    case 'instructions':
      return "the pair's instructions ask for a human";
    case 'model_declined':
      return 'the retrieved pairs do not answer the question';
    case 'instructions_leak':
      return "the drafted reply repeated a pair's hidden instructions, so it was not sent";
    default:
      return `no pair matches well enough (best ${pct(confidence)})`;
  }
}

/** The word that marks a contact internal: a label of that name, or a custom property of that name set to yes. */
export const INTERNAL_MARK = 'internal';
const YES = new Set(['yes', 'y', 'true', '1', 'internal', 'x', 'on']);
const norm = (s: string) => s.trim().toLowerCase();

/**
 * Is a contact (issue 15's Contact: `label_ids` are org chat labels, `custom_properties` maps
 * property_id -> value) marked internal? It is when one of its labels is named 'Internal', or a
 * custom property named 'Internal' holds a yes: text 'yes' / 'true' / '1' (case-insensitive), a
 * dropdown option whose label says so, or any date/number other than 0. The agent never answers
 * such contacts (issue 18 §3).
 */
export function contactMarkedInternal(
  contact: { label_ids?: readonly string[] | null; custom_properties?: Record<string, unknown> | null },
  labels: ReadonlyArray<{ label_id: string; name: string }>,
  properties: ReadonlyArray<{ property_id: string; property_name: string; property_value_type: string; property_value?: unknown }>,
): boolean {
  const own = new Set(contact.label_ids ?? []);
  if (labels.some((l) => own.has(l.label_id) && norm(l.name) === INTERNAL_MARK)) return true;
  const values = contact.custom_properties ?? {};
  for (const p of properties) {
    if (norm(p.property_name) !== INTERNAL_MARK) continue;
    const v = values[p.property_id];
    if (v == null || v === '') continue;
    if (p.property_value_type === 'dropdown') {
      const options = (p.property_value as Record<string, string> | null | undefined) ?? {};
      if (YES.has(norm(String(options[String(v)] ?? v)))) return true;
    } else if (p.property_value_type === 'number') {
      if (Number(v) !== 0 && !Number.isNaN(Number(v))) return true;
    } else if (p.property_value_type === 'date') {
      return true;
    } else if (v === true || YES.has(norm(String(v)))) return true;
  }
  return false;
}
