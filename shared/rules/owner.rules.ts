import { maskNumbersInText } from '../chat/chat-access.rules.ts';
import { permissionGranted, type MemberPermissions } from '../org/permissions.rules.ts';
import type { ActionType } from './rule.schemas.ts';

/**
 * Who an automated actor acts for (issue 42 §1), pure. Every rule and SLA policy has an owner: the
 * person who last defined what it does (created it, changed its trigger, conditions or actions, or
 * resumed it after a pause). It acts with its owner's rights, never more:
 * - an admin's automation (and an API key's, the AI agent's) is org-level: every chat, numbers as is;
 * - a member's automation acts only on chats that member may see (chat_access, spec §6) and sees
 *   numbers masked when the org masks them for members (`mask_phone_numbers`);
 * - a member's automation may take only MEMBER_RULE_ACTIONS (below);
 * - when the owner is removed, demoted or loses `member_permissions.rules`, or an action the owner
 *   may no longer take is in the rule, the rule is paused with the reason (`ownerProblem`), never
 *   run with rights its owner does not have.
 */

/** The owner as the automation sees them now: null = not an active member of the org. */
export interface OwnerState {
  email: string;
  /** the role the owner has now */
  role: 'admin' | 'member';
}

/** An owner that is not a person (an API key `apikey:…`, the system): org-level, as its creator was an admin. */
export const isOrgLevelOwner = (owner: string): boolean => !owner.includes('@') || owner.startsWith('apikey:');

/**
 * The actions a member's rule (or SLA policy) may take (issue 42 §1 decision, README "Automation
 * rules"): what the member could do by hand in a chat they may see. Left out: `webhook`, which sends
 * a chat's content to an address outside Chorus — admins only; `member_permissions.rules` lets a
 * member make rules at all and grants nothing beyond this list.
 */
export const MEMBER_RULE_ACTIONS: ReadonlySet<ActionType> = new Set<ActionType>([
  'send_message',
  'send_template',
  'assign',
  'unassign',
  'add_label',
  'remove_label',
  'close',
  'reopen',
  'snooze',
  'private_note',
  'create_ticket',
  'create_task',
  'notify',
  'set_property',
  'flag_message',
  'follow_up',
]);

/** In words, for the 403 and the log, why `type` is refused for a member (null: allowed). */
export function memberActionProblem(role: 'admin' | 'member', type: ActionType): string | null {
  if (role === 'admin' || MEMBER_RULE_ACTIONS.has(type)) return null;
  return type === 'webhook' ? '“call webhook” is for rules of admins only (it sends chat content outside Chorus)' : `“${type}” is for rules of admins only`;
}

/**
 * Why a rule may not run for its owner any more (null: it may), from the owner's current state.
 * @param owner the rule's owner email (`owner`, else `created_by` on rows made before owners)
 * @param ownerRole the owner's role when they took ownership (absent on older rows: no demotion check)
 * @param now the owner's state now (null: removed, or an invite never joined)
 * @param permissions the org's `member_permissions` (spec §6; unset = allowed)
 * @param actionTypes the rule's action types
 */
export function ownerProblem(owner: string, ownerRole: 'admin' | 'member' | undefined, now: OwnerState | null, permissions: MemberPermissions | null | undefined, actionTypes: ActionType[]): string | null {
  if (isOrgLevelOwner(owner)) return null;
  if (!now) return `its owner ${owner} is no longer a member of this workspace`;
  if (ownerRole === 'admin' && now.role !== 'admin') return `its owner ${owner} is no longer an admin`;
  if (now.role === 'admin') return null;
  if (!permissionGranted(permissions, 'rules')) return `its owner ${owner} may no longer use rules (member permissions)`;
  for (const t of actionTypes) {
    const p = memberActionProblem(now.role, t);
    if (p) return `its owner ${owner} is a member: ${p}`;
  }
  return null;
}

/** An ISO date or date-time (`2026-11-29`, `2026-11-29T11:00:00.000Z`): not a number to mask. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/;

/**
 * A payload (template variables, a webhook body) as a masked viewer would see it: every string has
 * the numbers written in it masked (maskNumbersInText: runs of 7+ digits, so `<number>@c.us` chat
 * ids and `contact.number` too); ISO dates and times (`now`, `time.date`: digit runs with dashes)
 * and other values are kept. Pure, deep, returns a copy.
 */
export function maskPayload<T>(value: T): T {
  if (typeof value === 'string') return (ISO_DATE.test(value) ? value : maskNumbersInText(value)) as T;
  if (Array.isArray(value)) return value.map((v) => maskPayload(v)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskPayload(v)])) as T;
  return value;
}
