import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';
import { applyAnalyticsInput, type AnalyticsBreakdown, type AnalyticsReport } from '../../shared/analytics/analytics.ts';
import type { Dashboard } from '../../shared/analytics/dashboard.ts';
import type { AuditEntry } from '../../shared/audit/audit.ts';
import { dayOf } from '../../shared/analytics/analytics.rules.ts';
import { db } from '../../shared/db/service.ts';
import { forgetOrgPlanState } from '../../shared/plan/gate.ts';

/**
 * Issue 19 over HTTP against the local runtime: messages, a reply, a close, an assignment and a
 * ticket become aggregate rows (read back by GET /analytics, exactly once per event), the
 * dashboard's figures, the audit log of admin actions with filters and paging, the CSV export,
 * and the permission rules (analytics follows member_permissions.analytics; logs are admins only).
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const customer = '15554440001';
const chatId = `${customer}@c.us`;
const enc = encodeURIComponent;
const today = () => dayOf(Date.now());

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  // a customer message a minute ago, then the admin answers now: response times of about 60 s
  await rt.postWebhook(inboundText(rt.phone, customer, 'Where is my parcel?', { timestampS: Math.floor(Date.now() / 1000) - 60 }));
  await rt.idle();
  await rt.orgJson(admin, `/chats/${enc(chatId)}/messages`, { method: 'POST', json: { body: 'On its way!' } });
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

const report = async (token = admin, from = today(), to = today()): Promise<AnalyticsReport & AnalyticsBreakdown> => ({
  ...(await rt.orgCall<AnalyticsReport>(token, 'GET', `/analytics?from=${from}&to=${to}`)).body,
  ...(await rt.orgCall<AnalyticsBreakdown>(token, 'GET', `/analytics/breakdown?from=${from}&to=${to}`)).body,
});

describe('aggregate rows', () => {
  it('count messages in and out, the conversation opened and the response times', async () => {
    await eventually(async () => {
      const r = await report();
      expect(r.totals).toMatchObject({ messages_in: 1, messages_out: 1, conversations_opened: 1 });
      expect(r.totals.first_response_ms).toBeGreaterThanOrEqual(55_000);
      expect(r.totals.response_ms).toBe(r.totals.first_response_ms);
      return true;
    });
    const r = await report();
    expect(r.members.find((m) => m.email === rt.adminEmail)).toMatchObject({ messages_out: 1 });
    expect(r.phones).toHaveLength(1);
    expect(r.phones[0]).toMatchObject({ messages_in: 1, messages_out: 1 });
    expect(r.busiest_hours!.reduce((a, b) => a + b, 0)).toBe(2);
    expect(r.series).toHaveLength(1);
    expect(r.previous!.totals.messages_in).toBe(0);
    expect(r).toMatchObject({ advanced: true, time_zone: expect.any(String), today: today() });
    expect(r.today_hours!.reduce((n, h) => n + h.messages_in, 0)).toBe(1);
  });

  it('count a close with its resolution time, an assignment and a ticket', async () => {
    await rt.orgJson(admin, '/chats/assign', { method: 'POST', json: { chat_ids: [chatId], assigned_to: rt.memberEmail } });
    await rt.orgJson(admin, '/chats/close', { method: 'POST', json: { chat_ids: [chatId], is_closed: true, type: 'all' } });
    const msgs = (await rt.orgJson<{ messages: Array<{ unique_id: string; from_me: boolean }> }>(admin, `/chats/${enc(chatId)}/messages`)).messages;
    await rt.orgJson(admin, '/tickets', { method: 'POST', json: { chat_id: chatId, quoted_message_id: msgs.find((m) => !m.from_me)!.unique_id } });
    await rt.idle();
    await eventually(async () => {
      const r = await report();
      expect(r.totals).toMatchObject({ conversations_closed: 1, tickets_created: 1, assigned: 1 });
      expect(r.totals.resolution_ms).toBeGreaterThanOrEqual(55_000);
      expect(r.members.find((m) => m.email === rt.memberEmail)).toMatchObject({ assigned: 1, conversations_closed: 1 });
      return true;
    });
  });

  it('applies an event once: a repeated event id changes nothing', async () => {
    const before = (await report()).totals.messages_in;
    const input = { kind: 'message_in' as const, at: Date.now(), chat: { chat_id: chatId, chat_type: 'user' as const, phone_id: rt.phone.phone_number_id, label_ids: [], assigned_to: null }, author: null };
    expect(await applyAnalyticsInput(rt.orgId, 'test:repeat-1', input)).toBe('applied');
    expect(await applyAnalyticsInput(rt.orgId, 'test:repeat-1', input)).toBe('duplicate');
    expect((await report()).totals.messages_in).toBe(before + 1);
  });

  it('a chat state another process changed is read again, not taken from this process cache', async () => {
    const chat = { chat_id: '15554440099@c.us', chat_type: 'user' as const, phone_id: rt.phone.phone_number_id, label_ids: [], assigned_to: null };
    const key = { org_id: rt.orgId, chat_id: chat.chat_id };
    // a day of its own, far from today's figures (the rebuild test below recomputes today)
    const t = Date.UTC(2025, 0, 15, 12);
    expect(await applyAnalyticsInput(rt.orgId, 'test:cache-1', { kind: 'message_in', at: t - 3000, chat, author: null })).toBe('applied');
    const first = (await db().entities.analyticsChatState.get(key).go({ consistent: true })).data!;
    expect(first).toMatchObject({ opened_at: t - 3000, waiting_since: t - 3000, responded: false });
    // another Lambda instance answered the chat meanwhile: the state moved on without this process
    await db().entities.analyticsChatState.put({ ...key, opened_at: t - 3000, responded: true, version: first.version + 1 }).go();
    expect(await applyAnalyticsInput(rt.orgId, 'test:cache-2', { kind: 'message_out', at: t, chat, member: rt.adminEmail })).toBe('applied');
    const after = (await db().entities.analyticsChatState.get(key).go({ consistent: true })).data!;
    expect(after).toMatchObject({ version: first.version + 2, responded: true });
    expect(after.waiting_since).toBeUndefined();
    // the cached state (waiting, not responded) would have counted a first response of 3 s
    const r = await report(admin, '2025-01-14', '2025-01-16');
    expect(r.totals).toMatchObject({ messages_in: 1, messages_out: 1, first_response_ms: null, response_ms: null });
  });

  it('exports CSV and refuses a reversed or malformed range with the field', async () => {
    const csv = await rt.api(admin, `/api/orgs/${rt.orgId}/analytics/export.csv?from=${today()}&to=${today()}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text.split('\n')[0]).toContain('section,key,conversations_opened');
    expect(text).toContain(`member,${rt.adminEmail}`);
    const reversed = await rt.orgCall<{ error: { details: unknown } }>(admin, 'GET', '/analytics?from=2026-02-02&to=2026-02-01');
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.details).toEqual([{ field: 'query.to', reason: 'must not be before from' }]);
    const bad = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(admin, 'GET', '/analytics?from=2026-02-31&to=x');
    expect(bad.status).toBe(400);
    expect([...new Set(bad.body.error.details.map((d) => d.field))].sort()).toEqual(['query.from', 'query.to']);
  });

  it('follows member_permissions.analytics for members (spec §6)', async () => {
    expect((await rt.orgCall(member, 'GET', `/analytics?from=${today()}&to=${today()}`)).status).toBe(200);
    await rt.orgJson(admin, '/settings/permissions', { method: 'PUT', json: { member_permissions: { analytics: false } } });
    const denied = await rt.orgCall<{ error: { message: string } }>(member, 'GET', `/analytics?from=${today()}&to=${today()}`);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('restricted for non-admin members');
    expect((await rt.orgCall(admin, 'GET', `/analytics?from=${today()}&to=${today()}`)).status).toBe(200);
    await rt.orgJson(admin, '/settings/permissions', { method: 'PUT', json: { member_permissions: { analytics: true } } });
  });
});

describe('dashboard', () => {
  it('shows today at a glance from counters, and the phones with their health', async () => {
    await rt.postWebhook(inboundText(rt.phone, '15554440002', 'Hello?'));
    await rt.idle();
    const d = (await rt.orgCall<Dashboard>(admin, 'GET', '/dashboard')).body;
    expect(d.is_platform).toBe(false);
    expect(d.today.open).toBeGreaterThanOrEqual(1);
    expect(d.today.unassigned).toBeGreaterThanOrEqual(1);
    expect(d.today.unread).toBeGreaterThanOrEqual(1);
    expect(d.phones[0]).toMatchObject({ org_phone: rt.phone.display_phone_number, health: 'connected' });
    expect(d.queues).toBeNull();
    expect(d.last_activity_at).toBeGreaterThan(Date.now() - 120_000);
    const m = (await rt.orgCall<Dashboard>(member, 'GET', '/dashboard')).body;
    expect(m.today.my_open_tickets).toBe(0);
  });
});

describe('audit log', () => {
  it('records label, team, settings and assignment changes, newest first, with filters and paging', async () => {
    const label = (await rt.orgJson<{ label: { label_id: string } }>(admin, '/labels', { method: 'POST', json: { name: 'Audit VIP', color: '#ff0000' } })).label;
    await rt.orgJson(admin, '/chats/labels', { method: 'POST', json: { chat_ids: [chatId], add: [label.label_id] } });
    await rt.idle();
    await eventually(async () => {
      const all = (await rt.orgCall<{ entries: AuditEntry[] }>(admin, 'GET', '/logs/audit')).body.entries;
      const actions = all.map((e) => e.action);
      expect(actions).toEqual(expect.arrayContaining(['label.created', 'chat.labelled', 'chat.assigned', 'settings.permissions_changed']));
      expect(all.every((e, i) => i === 0 || all[i - 1]!.at >= e.at)).toBe(true);
      expect(all.find((e) => e.action === 'label.created')).toMatchObject({ actor: rt.adminEmail, area: 'labels', target: label.label_id, summary: 'created the label Audit VIP' });
      return true;
    });
    const labels = (await rt.orgCall<{ entries: AuditEntry[] }>(admin, 'GET', '/logs/audit?area=labels')).body.entries;
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(labels.every((e) => e.area === 'labels')).toBe(true);
    const page1 = (await rt.orgCall<{ entries: AuditEntry[]; cursor: string | null }>(admin, 'GET', '/logs/audit?limit=1')).body;
    expect(page1.entries).toHaveLength(1);
    expect(page1.cursor).toBeTruthy();
    const page2 = (await rt.orgCall<{ entries: AuditEntry[] }>(admin, 'GET', `/logs/audit?limit=1&cursor=${enc(page1.cursor!)}`)).body;
    expect(page2.entries[0]!.audit_id).not.toBe(page1.entries[0]!.audit_id);
    const future = (await rt.orgCall<{ entries: AuditEntry[] }>(admin, 'GET', `/logs/audit?from=${Date.now() + 60_000}`)).body.entries;
    expect(future).toEqual([]);
    const byActor = (await rt.orgCall<{ entries: AuditEntry[] }>(admin, 'GET', `/logs/audit?actor=${enc(rt.memberEmail)}`)).body.entries;
    expect(byActor).toEqual([]);
  });

  it('is for admins only, and says which filter is wrong', async () => {
    expect((await rt.orgCall(member, 'GET', '/logs/audit')).status).toBe(403);
    const bad = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(admin, 'GET', '/logs/audit?area=nope&limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d) => d.field).sort()).toEqual(['query.area', 'query.limit']);
  });
});

describe('analytics:rebuild', () => {
  it('recomputes the day from the table to the same figures (the synthetic event of the idempotency test aside)', async () => {
    const { rebuildAnalytics } = await import('../../shared/analytics/rebuild.ts');
    const before = await report();
    const seen: string[] = [];
    const p = await rebuildAnalytics(rt.orgId, today(), today(), (x) => seen.push(x.phase));
    expect(seen).toContain('done');
    expect(p.chats).toBe(2);
    const after = await report();
    // the synthetic customer message (after the close) had opened a conversation too
    expect(after.totals).toEqual({ ...before.totals, messages_in: before.totals.messages_in - 1, conversations_opened: before.totals.conversations_opened - 1 });
    // (the rebuild credits a chat's customer messages to its current assignee: the member now has the first chat's)
    const admin = (r: AnalyticsBreakdown) => r.members.find((m) => m.email === rt.adminEmail);
    expect(admin(after)).toEqual(admin(before));
  });
});

describe('plans (spec §9: Starter lacks advanced analytics and exports)', () => {
  it('a Starter org gets the basic figures only, and 403 plan_feature on groups and the CSV export', async () => {
    const before = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data as Record<string, unknown>;
    await db()
      .entities.organization.patch({ org_id: rt.orgId })
      .set({ is_free_trial: false, subscription_status: 'active', org_plan: { plan_id: 'starter' } } as never)
      .go();
    forgetOrgPlanState(rt.orgId);
    try {
      const r = (await rt.orgCall<AnalyticsReport>(admin, 'GET', `/analytics?from=${today()}&to=${today()}`)).body;
      expect(r).toMatchObject({ advanced: false, previous: null, busiest_hours: null });
      expect(r.totals.messages_in).toBeGreaterThanOrEqual(1); // the basic figures stay
      expect(r.series).toHaveLength(1);
      for (const path of [`/analytics/breakdown?from=${today()}&to=${today()}`, `/analytics/groups?from=${today()}&to=${today()}`, `/analytics/export.csv?from=${today()}&to=${today()}`]) {
        const res = await rt.orgCall<{ error: { code: string; details: unknown } }>(admin, 'GET', path);
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('plan_feature');
      }
    } finally {
      await db()
        .entities.organization.patch({ org_id: rt.orgId })
        .set({ is_free_trial: before.is_free_trial, subscription_status: before.subscription_status, org_plan: before.org_plan ?? { plan_id: 'pro' } } as never)
        .go();
      forgetOrgPlanState(rt.orgId);
    }
    expect((await rt.orgCall(admin, 'GET', `/analytics/groups?from=${today()}&to=${today()}`)).status).toBe(200);
  });
});

describe('roll-up rows', () => {
  it('a range of whole weeks and months reads their roll-up rows and gives the same figures as the days', async () => {
    // March 2026 in the test org's zone (UTC): 2 Mar is a Monday
    const chat = { chat_id: '15554449999@c.us', chat_type: 'user' as const, phone_id: rt.phone.phone_number_id, label_ids: [], assigned_to: null };
    for (let d = 0; d < 31; d++) await applyAnalyticsInput(rt.orgId, `test:rollup-${d}`, { kind: 'message_in', at: Date.parse('2026-03-01T10:00:00Z') + d * 86_400_000, chat, author: null });
    const week = (await rt.orgCall<AnalyticsReport>(admin, 'GET', '/analytics?from=2026-03-02&to=2026-03-08')).body;
    expect(week.totals.messages_in).toBe(7);
    expect(week.series.map((x) => x.messages_in)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const month = await report(admin, '2026-03-01', '2026-03-31');
    expect(month.totals.messages_in).toBe(31);
    expect(month.phones[0]!.messages_in).toBe(31); // phones read the month row
    const mixed = await report(admin, '2026-03-04', '2026-04-10');
    expect(mixed.phones[0]!.messages_in).toBe(28);
    const rows = await db().entities.analyticsDaily.query.byDay({ org_id: rt.orgId, dim: 'phone' }).between({ day: 'M2026-03', dim_id: '' }, { day: 'M2026-03', dim_id: '\uffff' }).go();
    expect(rows.data[0]).toMatchObject({ msg_in: 31 });
  });
});
