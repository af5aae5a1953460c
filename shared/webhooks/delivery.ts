import type { EntityItem } from 'electrodb';
import { db } from '../db/service.ts';
import type { WebhookDeliveryEntity, WebhookEndpointEntity } from './webhook.entity.ts';
import { enqueue } from '../ports/commands.ts';
import { mailPort } from '../ports/mail.ts';
import { schedulerPort, scheduleName } from '../ports/scheduler.ts';
import { config } from '../config.ts';
import { log } from '../log.ts';
import { webhookNow } from './clock.ts';
import { backoffScale, urlPolicy } from './policy.ts';
import { envelope, integrationGuard, slackBody, viewData } from './payload.ts';
import { sendWebhook } from './send.ts';
import { deliveryIdFor } from './ids.ts';
import { orgCache } from '../org/org-cache.ts';
import { EVENT_MAP, isDelivered, retryDelay, shouldDisable, type OutboundEvent } from './webhook.rules.ts';
import type { ChatGuard } from '../access/guard.ts';

/**
 * The webhook engine (issue 20 item 4): fan-out of bus events into delivery rows, and attempts.
 *
 *  dispatchBusEvent (consumer `webhook-dispatch`): bus event -> public events (EVENT_MAP) -> one
 *    delivery row per enabled endpoint subscribed to each, created once per (event, endpoint)
 *    (deterministic `delivery_id`, not-exists condition) -> a command on `webhook-deliveries`.
 *  performAttempt (consumer `webhook-deliveries`): claims the attempt (conditional update of
 *    `attempts`, so a duplicate command never sends twice), signs and sends (send.ts), records the
 *    response; on failure schedules the next attempt through the scheduler port (RETRY_DELAYS_MS,
 *    ~24 h), and when attempts are exhausted after 5 days of continuous failure disables the
 *    endpoint and emails the org's admins (webhook.rules.ts shouldDisable).
 * Times epoch **ms** from the engine's clock (clock.ts).
 */
export const DELIVERY_QUEUE = 'webhook-deliveries' as const;
const TTL_S = 90 * 24 * 3600;
const LEASE_MS = 60_000;

/** The command on the `webhook-deliveries` queue: perform attempt `attempt` (1-based) of a delivery. */
export interface DeliveryCommand {
  org_id: string;
  endpoint_id: string;
  delivery_id: string;
  attempt: number;
}

export type Endpoint = EntityItem<typeof WebhookEndpointEntity>;
export type DeliveryRow = EntityItem<typeof WebhookDeliveryEntity>;

const isConditionFailure = (e: unknown) => (e as { cause?: { name?: string } }).cause?.name === 'ConditionalCheckFailedException' || /conditional/i.test(String((e as Error)?.message));

/**
 * The public event types any enabled endpoint of the org subscribes to, cached per process for 5 s
 * (org-cache.ts; forgotten at once by this process's endpoint writes, `forgetEndpoints`): the
 * webhook-dispatch consumer's `relevant` test, so an org without endpoints costs no read per event.
 * An endpoint created in another process gets events within 5 s.
 */
const subscribedTypes = orgCache(async (orgId): Promise<Set<string>> => new Set((await enabledEndpoints(orgId)).flatMap((e) => e.events)));

/** After an endpoint write in this process: the next event reads the endpoints again. */
export function forgetEndpoints(orgId?: string): void {
  subscribedTypes.forget(orgId);
}

/** Would `dispatchBusEvent` deliver this bus event to any endpoint? (cached, see subscribedTypes) */
export async function hasSubscribers(ev: Pick<BusEvent, 'name' | 'properties'>): Promise<boolean> {
  const types = EVENT_MAP[ev.name]?.(ev.properties) ?? [];
  const orgId = String(ev.properties.org_id ?? '');
  if (!types.length || !orgId) return false;
  const subscribed = await subscribedTypes.get(orgId);
  return types.some((t) => subscribed.has(t));
}

/** Enabled endpoints of an org (pattern 53: one Query of a small partition). */
export async function enabledEndpoints(orgId: string): Promise<Endpoint[]> {
  const rows = (await db().entities.webhookEndpoint.query.byId({ org_id: orgId }).go({ pages: 'all' })).data as Endpoint[];
  return rows.filter((e) => e.enabled);
}

/** The request body for an endpoint: Standard Webhooks envelope, or a Slack message for Slack. */
export function bodyFor(endpoint: Pick<Endpoint, 'kind'>, type: OutboundEvent, at: number, data: Record<string, unknown>): string {
  return JSON.stringify(endpoint.kind === 'slack' ? slackBody(type, data) : envelope(type, at, data));
}

/**
 * Create the delivery row of (eventKey, endpoint) unless it exists, then enqueue its first attempt.
 * Idempotent: a redelivered event finds its row; the command is enqueued again only while the row
 * has had no attempt (a crash between the two), and the attempt claim drops duplicates.
 */
export async function createDelivery(endpoint: Endpoint, type: OutboundEvent, eventKey: string, at: number, body: string): Promise<DeliveryRow> {
  const now = webhookNow();
  const deliveryId = deliveryIdFor(eventKey, endpoint.endpoint_id, at);
  const row = {
    org_id: endpoint.org_id,
    endpoint_id: endpoint.endpoint_id,
    delivery_id: deliveryId,
    event_type: type,
    event_id: eventKey,
    url: endpoint.url,
    status: 'pending' as const,
    attempts: 0,
    request_body: body,
    next_attempt_at: now,
    attempt_log: [],
    created_at: now,
    updated_at: now,
    expires_at: Math.floor(now / 1000) + TTL_S,
  };
  let stored: DeliveryRow = row as DeliveryRow;
  try {
    await db().entities.webhookDelivery.create(row).go();
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    const existing = (await db().entities.webhookDelivery.get({ org_id: endpoint.org_id, endpoint_id: endpoint.endpoint_id, delivery_id: deliveryId }).go({ consistent: true })).data;
    if (!existing || existing.attempts > 0 || existing.status !== 'pending') return existing as DeliveryRow;
    stored = existing;
  }
  await enqueue(DELIVERY_QUEUE, { org_id: endpoint.org_id, endpoint_id: endpoint.endpoint_id, delivery_id: deliveryId, attempt: 1 } satisfies DeliveryCommand);
  return stored;
}

/** A bus event as the dispatcher receives it. */
export interface BusEvent {
  name: string;
  properties: Record<string, unknown>;
  metadata: { id: string; occurred_at: string };
}

/**
 * Fan a bus event out to the org's subscribed endpoints (one delivery per endpoint and public
 * event). Payloads pass the guard's view functions (payload.ts) once per public event.
 * @returns the number of deliveries made or found
 */
export async function dispatchBusEvent(ev: BusEvent): Promise<number> {
  const types = EVENT_MAP[ev.name]?.(ev.properties) ?? [];
  const orgId = String(ev.properties.org_id ?? '');
  if (!types.length || !orgId) return 0;
  const endpoints = (await enabledEndpoints(orgId)).filter((e) => types.some((t) => e.events.includes(t)));
  if (!endpoints.length) return 0;
  const at = Date.parse(ev.metadata.occurred_at) || webhookNow();
  let guard: ChatGuard | undefined;
  let n = 0;
  for (const type of types) {
    const targets = endpoints.filter((e) => e.events.includes(type));
    if (!targets.length) continue;
    guard ??= await integrationGuard(orgId);
    const data = viewData(guard, type, ev.properties);
    await Promise.all(targets.map((e) => createDelivery(e, type, `${ev.metadata.id}#${type}`, at, bodyFor(e, type, at, data))));
    n += targets.length;
  }
  return n;
}

/** Secrets that sign now: the current one, and the previous one during its 24 h overlap. */
export function signingSecrets(e: Pick<Endpoint, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>, now: number): string[] {
  return e.previous_secret && (e.previous_secret_expires_at ?? 0) > now ? [e.secret, e.previous_secret] : [e.secret];
}

/**
 * Perform one attempt of a delivery (the `webhook-deliveries` consumer). Stale or duplicate
 * commands (the attempt already claimed, the delivery finished) do nothing.
 * @returns what happened, for logs and tests
 */
export async function performAttempt(cmd: DeliveryCommand): Promise<'sent' | 'retry' | 'failed' | 'skipped'> {
  const key = { org_id: cmd.org_id, endpoint_id: cmd.endpoint_id, delivery_id: cmd.delivery_id };
  const now = webhookNow();
  const d = (await db().entities.webhookDelivery.get(key).go({ consistent: true })).data;
  if (!d || d.status === 'succeeded' || d.status === 'failed') return 'skipped';
  // claim attempt n: from attempts n-1 (pending), or take over a sending attempt whose lease ran out
  const inFlight = d.status === 'sending' && d.attempts === cmd.attempt;
  // a worker that died mid-attempt left it 'sending': this command is retried by the queue until the lease ends, then takes over
  if (inFlight && (d.lease_until ?? 0) >= now) throw new Error(`attempt ${cmd.attempt} of ${d.delivery_id} is in flight; retried after its lease`);
  if (!inFlight && !(d.attempts === cmd.attempt - 1 && d.status === 'pending')) return 'skipped';
  try {
    await db()
      .entities.webhookDelivery.patch(key)
      .set({ attempts: cmd.attempt, status: 'sending', lease_until: now + LEASE_MS, updated_at: now })
      .where((a, op) => `${op.eq(a.attempts, d.attempts)} AND ${op.eq(a.status, d.status)} AND ${op.eq(a.updated_at, d.updated_at)}`)
      .go();
  } catch (e) {
    if (isConditionFailure(e)) return 'skipped';
    throw e;
  }
  const endpoint = (await db().entities.webhookEndpoint.get({ org_id: cmd.org_id, endpoint_id: cmd.endpoint_id }).go()).data as Endpoint | null;
  if (!endpoint || !endpoint.enabled) {
    await finish(d, cmd.attempt, now, { status: 'failed', excerpt: endpoint ? 'not sent: the endpoint is disabled' : 'not sent: the endpoint was deleted', code: 0, latency: 0 });
    return 'failed';
  }
  const res = await sendWebhook({ url: endpoint.url, deliveryId: d.delivery_id, body: d.request_body, secrets: signingSecrets(endpoint, now), policy: urlPolicy() });
  const after = webhookNow();
  if (isDelivered(res.status)) {
    await finish(d, cmd.attempt, after, { status: 'succeeded', excerpt: res.excerpt, code: res.status, latency: res.latencyMs });
    if (endpoint.failing_since != null || endpoint.failure_streak) {
      await db().entities.webhookEndpoint.patch({ org_id: cmd.org_id, endpoint_id: cmd.endpoint_id }).set({ failure_streak: 0, last_success_at: after }).remove(['failing_since']).go().catch(() => undefined);
    }
    return 'sent';
  }
  // a failed attempt: the endpoint's streak, and failing_since unless already set
  const failingSince = endpoint.failing_since ?? now;
  await db()
    .entities.webhookEndpoint.patch({ org_id: cmd.org_id, endpoint_id: cmd.endpoint_id })
    .add({ failure_streak: 1 })
    .data((a, op) => op.ifNotExists(a.failing_since, now))
    .go()
    .catch((e: unknown) => log('warn', 'webhooks.endpoint_update_failed', { error: String(e) }));
  const delay = retryDelay(cmd.attempt, backoffScale());
  if (delay != null) {
    const next = after + delay;
    await finish(d, cmd.attempt, after, { status: 'pending', excerpt: res.excerpt, code: res.status, latency: res.latencyMs, next });
    const body: DeliveryCommand = { ...cmd, attempt: cmd.attempt + 1 };
    await (await schedulerPort()).schedule({ name: scheduleName('whd', d.delivery_id, String(cmd.attempt + 1)), at: next, queue: DELIVERY_QUEUE, body: JSON.stringify(body) });
    return 'retry';
  }
  await finish(d, cmd.attempt, after, { status: 'failed', excerpt: res.excerpt, code: res.status, latency: res.latencyMs });
  if (shouldDisable(failingSince, after)) await disableFailingEndpoint(endpoint, after);
  return 'failed';
}

async function finish(d: DeliveryRow, attempt: number, at: number, r: { status: 'pending' | 'succeeded' | 'failed'; excerpt: string; code: number; latency: number; next?: number }): Promise<void> {
  const entry = { attempt, at, response_code: r.code, latency_ms: r.latency, excerpt: r.excerpt.slice(0, 200) };
  const logRows = [...((d.attempt_log as unknown[]) ?? []), entry].slice(-10);
  const q = db()
    .entities.webhookDelivery.patch({ org_id: d.org_id, endpoint_id: d.endpoint_id, delivery_id: d.delivery_id })
    .set({ status: r.status, response_code: r.code, response_excerpt: r.excerpt, latency_ms: r.latency, attempt_log: logRows, updated_at: at, ...(r.next ? { next_attempt_at: r.next } : {}) });
  await (r.next ? q : q.remove(['next_attempt_at', 'lease_until'])).go();
}

/**
 * Disable an endpoint that keeps failing (once: conditional on enabled) and email the org's active
 * admins (mail port; locally the outbox at /_local/outbox).
 */
export async function disableFailingEndpoint(endpoint: Endpoint, now: number): Promise<boolean> {
  try {
    await db()
      .entities.webhookEndpoint.patch({ org_id: endpoint.org_id, endpoint_id: endpoint.endpoint_id })
      .set({ enabled: false, disabled_reason: 'failing', disabled_at: now, updated_at: now })
      .where((a, op) => op.eq(a.enabled, true))
      .go();
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
  forgetEndpoints(endpoint.org_id);
  log('warn', 'webhooks.endpoint_disabled', { org_id: endpoint.org_id, endpoint_id: endpoint.endpoint_id });
  const members = (await db().entities.member.query.byOrg({ org_id: endpoint.org_id }).go({ pages: 'all' })).data;
  const org = (await db().entities.organization.get({ org_id: endpoint.org_id }).go()).data as { org_name?: string } | null;
  const app = (config().APP_URL || '').replace(/\/+$/, '');
  const page = endpoint.kind === 'slack' ? 'slack' : endpoint.kind === 'webhook' ? 'webhooks' : endpoint.kind;
  const mail = await mailPort();
  for (const m of members.filter((x) => x.role === 'admin' && x.is_active !== false)) {
    await mail
      .send({
        to: m.email,
        kind: 'webhook-disabled',
        subject: `A webhook endpoint of ${org?.org_name ?? 'your workspace'} was disabled`,
        text: [
          `Chorus disabled the ${endpoint.kind} endpoint ${endpoint.url} because every delivery to it has failed for more than 5 days.`,
          '',
          `No more events are sent to it. Fix the receiver, then enable it again and replay the failed deliveries at ${app}/settings/integrations/${page}.`,
        ].join('\n'),
      })
      .catch((e: unknown) => log('error', 'webhooks.disable_mail_failed', { to: m.email, error: String(e) }));
  }
  return true;
}
