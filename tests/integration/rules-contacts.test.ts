import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import type { Rule, RuleLog } from '../../shared/rules/rule.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';

/**
 * The rules' contact triggers (issue 17 §1) against the local runtime: contact.created (a member
 * creates a contact; a person's first message creates one) and contact.property_changed (a
 * custom property of the contact changes, optionally only one named property), published by the
 * contact code through the outbox and evaluated by the rules consumer with the contact's fields
 * (`contact.properties.<id>`, `{{property.from}}` / `{{property.to}}`).
 */
let rt: TestRuntime;
let admin: string;
const enc = encodeURIComponent;
const call = async <T = Record<string, unknown>>(method: string, path: string, json?: unknown) => rt.orgCall<T>(admin, method, path, json);
const logsOf = async (ruleId: string) => (await call<{ logs: RuleLog[] }>('GET', `/logs/rules?rule_id=${ruleId}`)).body.logs;
let tier = '';
let vip = '';

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  tier = (await call<{ property: { property_id: string } }>('POST', '/properties', { property_name: 'Tier', property_value_type: 'text' })).body.property.property_id;
  vip = (await call<{ label: { label_id: string } }>('POST', '/labels', { name: 'Gold customer', color: '#1f7a8c' })).body.label.label_id;
}, 120_000);

afterAll(async () => {
  await rt?.cleanup();
});

describe('contact triggers (issue 17 §1)', () => {
  it('contact.created fires for a contact typed in and for a person’s first message, with the contact’s fields', async () => {
    const rule = (await call<{ rule: Rule }>('POST', '/rules', { name: 'New contact', trigger: { type: 'contact.created' }, conditions: { match: 'all', items: [{ field: 'contact.name', op: 'is_known' }] }, actions: [{ type: 'private_note', body: 'New contact {{contact.name}}' }] })).body.rule;
    expect((await call('POST', '/contacts', { phone: '+1 415 555 0142', name: 'Typed In' })).status).toBe(201);
    const typed = await eventually(async () => (await logsOf(rule.rule_id)).find((l) => l.trigger === 'contact.created') ?? null, 20_000, 'contact.created evaluated');
    // no chat with this number yet: the note cannot be written (logged as failed, not retried)
    expect(typed.chat_id).toBe('14155550142@c.us');
    expect(typed.actions[0]).toMatchObject({ type: 'private_note', status: 'failed' });

    await rt.postWebhook(inboundText(rt.phone, '15550004343', 'Hi, first time here', { name: 'Newcomer' }));
    const first = await eventually(async () => (await logsOf(rule.rule_id)).find((l) => l.chat_id === '15550004343@c.us') ?? null, 20_000, 'contact.created of a first message');
    expect(first.outcome).toBe('matched');
    await eventually(async () => {
      const msgs = (await call<{ messages: Array<{ body?: string; is_private_note?: boolean }> }>('GET', `/chats/${enc('15550004343@c.us')}/messages`)).body.messages;
      return msgs.some((m) => m.is_private_note && m.body === 'New contact Newcomer') || null;
    }, 20_000, 'the note on the new chat');
    await call('DELETE', `/rules/${rule.rule_id}`);
  });

  it('contact.property_changed fires per changed property, filtered by the property, with from/to', async () => {
    const rule = (await call<{ rule: Rule }>('POST', '/rules', {
      name: 'Gold tier',
      trigger: { type: 'contact.property_changed', property_id: tier },
      conditions: { match: 'all', items: [{ field: `contact.properties.${tier}`, op: 'equals', value: 'Gold' }] },
      actions: [{ type: 'add_label', label_id: vip }, { type: 'private_note', body: 'Tier {{property.from | default: "none"}} → {{property.to}}' }],
    })).body.rule;
    expect(rule.trigger).toEqual({ type: 'contact.property_changed', property_id: tier });
    // a name change is a contact.updated without property changes: no evaluation
    expect((await call('PATCH', '/contacts/15550004343', { name: 'Renamed' })).status).toBe(200);
    expect((await call('PATCH', '/contacts/15550004343', { custom_properties: { [tier]: 'Silver' } })).status).toBe(200);
    const silver = await eventually(async () => (await logsOf(rule.rule_id)).find((l) => l.outcome === 'not_matched') ?? null, 20_000, 'Silver evaluated');
    expect(silver.reasons.join(' ')).toContain('Silver');
    expect((await call('PATCH', '/contacts/15550004343', { custom_properties: { [tier]: 'Gold' } })).status).toBe(200);
    await eventually(async () => (await logsOf(rule.rule_id)).some((l) => l.outcome === 'matched') || null, 20_000, 'Gold matched');
    const chat = (await call<{ chat: Chat }>('GET', `/chats/${enc('15550004343@c.us')}`)).body.chat;
    expect(chat.label_ids).toContain(vip);
    const msgs = (await call<{ messages: Array<{ body?: string; is_private_note?: boolean }> }>('GET', `/chats/${enc('15550004343@c.us')}/messages`)).body.messages;
    expect(msgs.some((m) => m.is_private_note && m.body === 'Tier Silver → Gold')).toBe(true);
    const logs = await logsOf(rule.rule_id);
    expect(logs.every((l) => l.trigger === 'contact.property_changed')).toBe(true);
    expect(logs).toHaveLength(2); // the rename fired nothing
  });

  it('merge and import publish their contact events too: a merge filling a property fires property_changed; an imported contact fires contact.created', async () => {
    const rule = (await call<{ rule: Rule }>('POST', '/rules', { name: 'Merged tier', trigger: { type: 'contact.property_changed', property_id: tier }, conditions: { match: 'all', items: [] }, actions: [{ type: 'add_label', label_id: vip }] })).body.rule;
    expect((await call('POST', '/contacts', { phone: '+91 98000 71710', name: 'Survivor' })).status).toBe(201);
    expect((await call('POST', '/contacts', { phone: '+91 98000 72720', name: 'Other phone', custom_properties: { [tier]: 'Platinum' } })).status).toBe(201);
    expect((await call('POST', '/contacts/919800071710/merge', { other_contact_id: '919800072720' })).status).toBe(200);
    const merged = await eventually(async () => (await logsOf(rule.rule_id)).find((l) => l.chat_id === '919800071710@c.us') ?? null, 20_000, 'property_changed of the merge');
    expect(merged.trigger).toBe('contact.property_changed');
    await call('DELETE', `/rules/${rule.rule_id}`);

    const created = (await call<{ rule: Rule }>('POST', '/rules', { name: 'Imported', trigger: { type: 'contact.created' }, conditions: { match: 'all', items: [] }, actions: [{ type: 'add_label', label_id: vip }] })).body.rule;
    const job = (await call<{ import: { job_id: string } }>('POST', '/contacts/imports', { total: 1, file_name: 'one.csv' })).body.import;
    expect((await call('PUT', `/contacts/imports/${job.job_id}/chunks/0`, { rows: [{ phone: '919800073730', name: 'Imported person', custom_properties: {} }] })).status).toBeLessThan(300);
    expect((await call('POST', `/contacts/imports/${job.job_id}/start`)).status).toBeLessThan(300);
    const imported = await eventually(async () => (await logsOf(created.rule_id)).find((l) => l.chat_id === '919800073730@c.us') ?? null, 30_000, 'contact.created of the imported contact');
    expect(imported.trigger).toBe('contact.created');
    await call('DELETE', `/rules/${created.rule_id}`);
  });
});
