import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import { enqueue } from '../ports/commands.ts';
import type { Actor } from '../auth/actor.ts';
import { webhookNow } from './clock.ts';
import { urlPolicy } from './policy.ts';
import { endpointUrlProblem } from './url.rules.ts';
import { bodyFor, createDelivery, forgetEndpoints, DELIVERY_QUEUE, type DeliveryCommand, type DeliveryRow, type Endpoint } from './delivery.ts';
import { samplePayload } from './samples.ts';
import { generateSecret } from './ids.ts';
import { MAX_ATTEMPTS, PUBLIC_EVENTS, ROTATION_OVERLAP_MS, SLACK_EVENTS, TEST_EVENT, type PublicEvent } from './webhook.rules.ts';
import type { CreateEndpointInput, DeliveryView, EndpointView, RestHookInput, SlackSettingsInput, UpdateEndpointInput } from './webhook.schemas.ts';

/**
 * Admin use cases of outbound webhooks (issue 20 items 4, 5, 7; admin-only like every
 * integrations setting, spec §6 'Organization settings'): endpoints (webhooks, Zapier / Pabbly
 * REST hooks, the org's Slack webhook), secret rotation, test events, the delivery log and replay.
 * @throws AppError 403 webhooks.forbidden for members; 404 endpoint.not_found / delivery.not_found
 *   (also for another org's ids: every key carries the actor's org_id); 400 validation.failed
 *   with `{ field, reason }` for a refused URL (url.rules.ts).
 */
export const MAX_ENDPOINTS = 50;
const SLACK_ID = 'slack';

function assertAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new AppError('webhooks.forbidden', 'Only admins can manage integrations.', { status: 403 });
}

const invalid = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { status: 400, details: [{ field, reason }] });

function checkUrl(url: string, field = 'url', slack = false): void {
  const policy = urlPolicy();
  const problem = endpointUrlProblem(url, policy);
  if (problem) throw invalid(field, problem);
  if (slack && !policy.allowLoopback && new URL(url).hostname !== 'hooks.slack.com') throw invalid(field, 'must be a Slack incoming webhook URL (https://hooks.slack.com/services/…)');
}

/** The endpoint as the admin API shows it (the secret included: only admins reach these routes). */
export function endpointView(e: Endpoint): EndpointView {
  return {
    endpoint_id: e.endpoint_id,
    kind: e.kind,
    url: e.url,
    description: e.description ?? '',
    events: e.events,
    secret: e.secret,
    rotating_until: e.previous_secret && (e.previous_secret_expires_at ?? 0) > webhookNow() ? (e.previous_secret_expires_at ?? null) : null,
    enabled: e.enabled,
    disabled_reason: e.disabled_reason ?? null,
    disabled_at: e.disabled_at ?? null,
    failing_since: e.failing_since ?? null,
    failure_streak: e.failure_streak ?? 0,
    last_success_at: e.last_success_at ?? null,
    created_by: e.created_by,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

/** A delivery log row as the admin API shows it. */
export function deliveryView(d: DeliveryRow): DeliveryView {
  return {
    delivery_id: d.delivery_id,
    endpoint_id: d.endpoint_id,
    event_type: d.event_type,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    max_attempts: MAX_ATTEMPTS,
    response_code: d.response_code ?? null,
    response_excerpt: d.response_excerpt ?? null,
    latency_ms: d.latency_ms ?? null,
    next_attempt_at: d.status === 'pending' ? (d.next_attempt_at ?? null) : null,
    request_body: d.request_body,
    attempt_log: (d.attempt_log as unknown[]) ?? [],
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

async function getEndpoint(actor: Actor, endpointId: string): Promise<Endpoint> {
  const e = (await db().entities.webhookEndpoint.get({ org_id: actor.org_id, endpoint_id: endpointId }).go()).data;
  if (!e) throw notFound('endpoint');
  return e;
}

/** All endpoints of the org, optionally of one kind (pattern 53). */
export async function listEndpoints(actor: Actor, kind?: Endpoint['kind']): Promise<EndpointView[]> {
  assertAdmin(actor);
  const rows = (await db().entities.webhookEndpoint.query.byId({ org_id: actor.org_id }).go({ pages: 'all' })).data;
  return rows.filter((e) => !kind || e.kind === kind).map(endpointView);
}

async function insertEndpoint(actor: Actor, e: Pick<Endpoint, 'kind' | 'url' | 'events'> & { description?: string; endpoint_id?: string }): Promise<Endpoint> {
  const count = (await db().entities.webhookEndpoint.query.byId({ org_id: actor.org_id }).go({ pages: 'all', attributes: ['endpoint_id'] })).data.length;
  if (count >= MAX_ENDPOINTS) throw new AppError('webhooks.too_many', `A workspace can have at most ${MAX_ENDPOINTS} endpoints. Delete one first.`, { status: 409 });
  const now = webhookNow();
  const row = {
    org_id: actor.org_id,
    endpoint_id: e.endpoint_id ?? `ep_${ulid()}`,
    kind: e.kind,
    url: e.url,
    description: e.description ?? '',
    events: e.events,
    secret: generateSecret(),
    enabled: true,
    failure_streak: 0,
    created_by: actor.email,
    created_at: now,
    updated_at: now,
  };
  await db().entities.webhookEndpoint.create(row).go();
  forgetEndpoints(actor.org_id);
  return row as Endpoint;
}

/** POST /webhooks: a new endpoint, enabled, with a fresh secret. */
export async function createEndpoint(actor: Actor, input: CreateEndpointInput): Promise<EndpointView> {
  assertAdmin(actor);
  checkUrl(input.url);
  return endpointView(await insertEndpoint(actor, { kind: 'webhook', url: input.url, events: [...new Set(input.events)], description: input.description }));
}

/**
 * PATCH /webhooks/{id}: url, description, events, enabled. Enabling again clears the failure state
 * (failing_since, streak, disabled reason).
 */
export async function updateEndpoint(actor: Actor, endpointId: string, input: UpdateEndpointInput): Promise<EndpointView> {
  assertAdmin(actor);
  const e = await getEndpoint(actor, endpointId);
  if (input.url !== undefined) checkUrl(input.url, 'url', e.kind === 'slack');
  const now = webhookNow();
  const set: Partial<Endpoint> = { updated_at: now };
  if (input.url !== undefined) set.url = input.url;
  if (input.description !== undefined) set.description = input.description;
  if (input.events !== undefined) set.events = [...new Set(input.events)];
  const removes: Array<'failing_since' | 'disabled_reason' | 'disabled_at'> = [];
  if (input.enabled === true && !e.enabled) {
    set.enabled = true;
    set.failure_streak = 0;
    removes.push('failing_since', 'disabled_reason', 'disabled_at');
  } else if (input.enabled === false && e.enabled) Object.assign(set, { enabled: false, disabled_reason: 'manual', disabled_at: now });
  const q = db().entities.webhookEndpoint.patch({ org_id: actor.org_id, endpoint_id: endpointId }).set(set);
  const res = await (removes.length ? q.remove(removes) : q).go({ response: 'all_new' });
  forgetEndpoints(actor.org_id);
  return endpointView(res.data as Endpoint);
}

/** DELETE /webhooks/{id}. Its delivery rows expire with their TTL; pending retries find no endpoint and stop. */
export async function deleteEndpoint(actor: Actor, endpointId: string, kinds?: Endpoint['kind'][]): Promise<void> {
  assertAdmin(actor);
  const e = await getEndpoint(actor, endpointId);
  if (kinds && !kinds.includes(e.kind)) throw notFound('endpoint');
  await db().entities.webhookEndpoint.delete({ org_id: actor.org_id, endpoint_id: endpointId }).go();
  forgetEndpoints(actor.org_id);
}

/**
 * POST /webhooks/{id}/rotate-secret: a new secret; the old one keeps signing (next to the new) for
 * 24 h, so receivers can switch without losing a delivery.
 */
export async function rotateSecret(actor: Actor, endpointId: string): Promise<EndpointView> {
  assertAdmin(actor);
  const e = await getEndpoint(actor, endpointId);
  const now = webhookNow();
  const res = await db()
    .entities.webhookEndpoint.patch({ org_id: actor.org_id, endpoint_id: endpointId })
    .set({ secret: generateSecret(), previous_secret: e.secret, previous_secret_expires_at: now + ROTATION_OVERLAP_MS, updated_at: now })
    .go({ response: 'all_new' });
  return endpointView(res.data as Endpoint);
}

/** POST /webhooks/{id}/test: a `webhook.test` delivery to this endpoint, logged like any other. */
export async function sendTestEvent(actor: Actor, endpointId: string) {
  assertAdmin(actor);
  const e = await getEndpoint(actor, endpointId);
  if (!e.enabled) throw new AppError('webhooks.endpoint_disabled', 'Enable this endpoint before sending a test event.', { status: 409 });
  const at = webhookNow();
  const data = { message: 'This is a test event from Chorus.', endpoint_id: e.endpoint_id, sent_by: actor.email };
  const d = await createDelivery(e, TEST_EVENT, `test:${ulid()}`, at, bodyFor(e, TEST_EVENT, at, data));
  return deliveryView(d);
}

/** GET /webhooks/{id}/deliveries: the log, newest first, cursor paged (pattern 54). */
export async function listDeliveries(actor: Actor, endpointId: string, q: { cursor?: string; limit: number }) {
  assertAdmin(actor);
  await getEndpoint(actor, endpointId);
  try {
    const res = await db().entities.webhookDelivery.query.byEndpoint({ org_id: actor.org_id, endpoint_id: endpointId }).go({ order: 'desc', limit: q.limit, cursor: q.cursor ?? null });
    return { deliveries: res.data.map(deliveryView), cursor: res.cursor ?? null };
  } catch (e) {
    if (q.cursor) throw invalid('query.cursor', 'is not a cursor of this list');
    throw e;
  }
}

/**
 * POST /webhooks/{id}/deliveries/{delivery_id}/replay: send the same body again (same
 * `webhook-id`, so receivers that already got it can drop it) as one more attempt, now.
 * @throws AppError 409 webhooks.delivery_in_flight while an attempt is being sent; 409 webhooks.endpoint_disabled
 */
export async function replayDelivery(actor: Actor, endpointId: string, deliveryId: string) {
  assertAdmin(actor);
  const e = await getEndpoint(actor, endpointId);
  if (!e.enabled) throw new AppError('webhooks.endpoint_disabled', 'Enable this endpoint before replaying deliveries.', { status: 409 });
  const key = { org_id: actor.org_id, endpoint_id: endpointId, delivery_id: deliveryId };
  const d = (await db().entities.webhookDelivery.get(key).go({ consistent: true })).data;
  if (!d) throw notFound('delivery');
  if (d.status === 'sending' || d.status === 'pending') throw new AppError('webhooks.delivery_in_flight', 'This delivery is still being attempted.', { status: 409 });
  const now = webhookNow();
  await db()
    .entities.webhookDelivery.patch(key)
    .set({ status: 'pending', next_attempt_at: now, updated_at: now, expires_at: Math.floor(now / 1000) + 90 * 24 * 3600 })
    .where((a, op) => `${op.eq(a.status, d.status)} AND ${op.eq(a.attempts, d.attempts)}`)
    .go();
  await enqueue(DELIVERY_QUEUE, { ...key, attempt: d.attempts + 1 } satisfies DeliveryCommand);
  return deliveryView({ ...d, status: 'pending', next_attempt_at: now, updated_at: now });
}

/**
 * Zapier / Pabbly REST hook subscribe (issue 20 item 5): an endpoint of kind `source` for one
 * trigger. Answers `{ id, … }` (Zapier keeps `id` for unsubscribe).
 */
export async function subscribeRestHook(actor: Actor, input: RestHookInput) {
  assertAdmin(actor);
  checkUrl(input.target_url, 'target_url');
  const e = await insertEndpoint(actor, { kind: input.source, url: input.target_url, events: [input.event], description: `${input.source === 'zapier' ? 'Zapier' : 'Pabbly'}: ${input.event}` });
  return { id: e.endpoint_id, ...endpointView(e) };
}

/** REST hook unsubscribe: deletes a Zapier / Pabbly endpoint (404 for other kinds). */
export async function unsubscribeRestHook(actor: Actor, endpointId: string): Promise<void> {
  await deleteEndpoint(actor, endpointId, ['zapier', 'pabbly']);
}

/** Sample payloads of a trigger, as a list (Zapier's `performList` shape). */
export function restHookSamples(actor: Actor, event: PublicEvent) {
  assertAdmin(actor);
  return [samplePayload(event)];
}

/** The trigger catalogue (events and their samples), for the settings pages. */
export function eventCatalogue(actor: Actor) {
  assertAdmin(actor);
  return { events: PUBLIC_EVENTS.map((e) => ({ type: e, sample: samplePayload(e) })), slack_events: SLACK_EVENTS };
}

/** GET /integrations/slack: the org's Slack webhook (null when none). */
export async function getSlack(actor: Actor): Promise<EndpointView | null> {
  assertAdmin(actor);
  const e = (await db().entities.webhookEndpoint.get({ org_id: actor.org_id, endpoint_id: SLACK_ID }).go()).data;
  return e ? endpointView(e) : null;
}

/** PUT /integrations/slack: set the incoming-webhook URL and the events (creates it the first time). */
export async function putSlack(actor: Actor, input: SlackSettingsInput): Promise<EndpointView> {
  assertAdmin(actor);
  checkUrl(input.url, 'url', true);
  const existing = (await db().entities.webhookEndpoint.get({ org_id: actor.org_id, endpoint_id: SLACK_ID }).go()).data;
  if (!existing) {
    const e = await insertEndpoint(actor, { kind: 'slack', endpoint_id: SLACK_ID, url: input.url, events: [...new Set(input.events)], description: 'Slack' });
    return input.enabled ? endpointView(e) : updateEndpoint(actor, SLACK_ID, { enabled: false });
  }
  return updateEndpoint(actor, SLACK_ID, { url: input.url, events: [...new Set(input.events)] as unknown as PublicEvent[], enabled: input.enabled });
}

/** DELETE /integrations/slack. */
export async function deleteSlack(actor: Actor): Promise<void> {
  assertAdmin(actor);
  await db().entities.webhookEndpoint.delete({ org_id: actor.org_id, endpoint_id: SLACK_ID }).go();
  forgetEndpoints(actor.org_id);
}
