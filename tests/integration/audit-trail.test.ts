import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';
import type { AuditEntry } from '../../shared/audit/audit.ts';
import { actionSummary } from '../../shared/rules/actions.ts';
import type { ActionContext } from '../../shared/rules/engine.ts';

/**
 * Issue 49 §5 over HTTP against the local runtime: every admin route declaring an `audit` kind
 * (functions/routes.ts) writes one row through the one wrapper (functions/lib/http.ts) — rules,
 * AI settings, API keys (no secret kept), invites, role changes, a workspace rename (before → after),
 * ticket settings — labels are named, not given as ids, in the audit log and in the rule texts, and
 * /logs/audit filters by actor, kind (area) and date.
 */
let rt: TestRuntime;
let admin: string;
const customer = '15554449001';
const chatId = `${customer}@c.us`;
const enc = encodeURIComponent;
let labelId: string;

const entries = async (qs = ''): Promise<AuditEntry[]> => (await rt.orgCall<{ entries: AuditEntry[] }>(admin, 'GET', `/logs/audit${qs}`)).body.entries;
const ok = async <T>(method: string, path: string, json?: unknown): Promise<T> => {
  const r = await rt.orgCall<T>(admin, method, path, json);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
};

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  await rt.postWebhook(inboundText(rt.phone, customer, 'Hello'));
  await rt.idle();
  labelId = (await ok<{ label: { label_id: string } }>('POST', '/labels', { name: 'Trail VIP', color: '#00aa00' })).label.label_id;
});
afterAll(async () => rt?.cleanup());

describe('admin actions write audit rows through the route option', () => {
  it('records rule, AI, API key, team and workspace changes, with names and no secrets', async () => {
    const rule = (await ok<{ rule: { rule_id: string } }>('POST', '/rules', { name: 'Trail rule', trigger: { type: 'message.received' }, actions: [{ type: 'close' }], enabled: false })).rule;
    await ok('DELETE', `/rules/${rule.rule_id}`);
    await ok('PUT', '/ai/settings', { enabled: false });
    const key = await ok<{ token: string }>('POST', '/api-keys', { name: 'Trail key', scopes: ['chats:read'] });
    await ok('POST', '/team/invites', { email: 'trail.new@local.chorus', role: 'member' });
    await ok('PATCH', `/team/${enc(rt.memberEmail)}`, { role: 'admin' });
    const before = (await ok<{ org_name: string }>('GET', '/settings/general')).org_name;
    await ok('PUT', '/settings/general', { org_name: 'Trail Works' });

    const all = await entries();
    const of = (action: string) => all.find((e) => e.action === action);
    expect(of('rule.created')).toMatchObject({ actor: rt.adminEmail, area: 'rules', target: rule.rule_id, summary: 'created the rule Trail rule' });
    expect(of('rule.deleted')).toMatchObject({ area: 'rules', target: rule.rule_id });
    expect(of('ai.settings_changed')).toMatchObject({ area: 'ai', summary: 'changed the AI agent settings', details: { enabled: false } });
    expect(of('apikey.created')).toMatchObject({ area: 'api', summary: 'created the API key Trail key' });
    expect(JSON.stringify(all)).not.toContain(key.token);
    expect(of('team.invited')).toMatchObject({ area: 'team', target: 'trail.new@local.chorus', summary: 'invited trail.new@local.chorus as member' });
    expect(of('team.role_changed')).toMatchObject({ area: 'team', target: rt.memberEmail, summary: `made ${rt.memberEmail} admin` });
    expect(of('settings.general_changed')).toMatchObject({ area: 'settings', summary: `renamed the workspace from ${before} to Trail Works` });
  });

  it('a refused change writes nothing', async () => {
    const n = (await entries('?area=rules')).length;
    const bad = await rt.orgCall(admin, 'POST', '/rules', { name: '' });
    expect(bad.status).toBe(400);
    expect((await entries('?area=rules')).length).toBe(n);
  });
});

describe('label names, not ids', () => {
  it('names the label in the audit row of a chat label change and of a label deletion', async () => {
    await ok('POST', '/chats/labels', { chat_ids: [chatId], add: [labelId] });
    await rt.idle();
    await eventually(async () => {
      const row = (await entries('?area=labels')).find((e) => e.action === 'chat.labelled');
      expect(row?.summary).toContain('Trail VIP');
      expect(row?.summary).not.toContain(labelId);
      return true;
    });
  });

  it('names the label in the rule texts (dry run and rule log)', async () => {
    const ac = { orgId: rt.orgId, vars: {} } as unknown as ActionContext;
    expect(await actionSummary(ac, { type: 'add_label', label_id: labelId } as never)).toBe('add label “Trail VIP”');
    expect(await actionSummary(ac, { type: 'remove_label', label_id: 'lbl_gone' } as never)).toBe('remove label lbl_gone');
  });

  it('names a deleted label in its own row', async () => {
    await ok('DELETE', `/labels/${labelId}`);
    const row = (await entries('?area=labels')).find((e) => e.action === 'label.deleted');
    expect(row).toMatchObject({ target: labelId, summary: 'deleted the label Trail VIP' });
  });
});

describe('/logs/audit filters', () => {
  it('by actor, kind (area) and date', async () => {
    const rules = await entries('?area=rules');
    expect(rules.length).toBeGreaterThanOrEqual(2);
    expect(rules.every((e) => e.area === 'rules')).toBe(true);
    expect((await entries(`?actor=${enc(rt.adminEmail)}&area=ai`)).map((e) => e.action)).toEqual(['ai.settings_changed']);
    expect(await entries(`?actor=${enc('nobody@local.chorus')}`)).toEqual([]);
    expect(await entries(`?area=rules&to=${Date.now() - 3_600_000}`)).toEqual([]);
  });
});
