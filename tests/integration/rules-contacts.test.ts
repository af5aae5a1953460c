import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import type { Rule, RuleLog } from '../../shared/rules/rule.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import { documentClient } from '../../shared/db/client.ts';
import { OUTBOX_ENTITY_NAME } from '../../shared/outbox/outbox-event.entity.ts';

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

/** Every TransactWriteItems this process sends from now on: per transaction, its contact writes and its outbox events. */
type SeenTx = { contacts: Array<{ op: 'put' | 'update'; key: string }>; events: Array<{ type: string; detail: { properties?: Record<string, unknown> } }> };
const transactions: SeenTx[] = [];
function watchTransactions(): void {
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') {
        const items = (args.input as { TransactItems: Array<{ Put?: { Item: Record<string, unknown> }; Update?: { Key: Record<string, unknown> } }> }).TransactItems;
        const tx: SeenTx = { contacts: [], events: [] };
        for (const it of items) {
          if (it.Put?.Item.__edb_e__ === 'contact') tx.contacts.push({ op: 'put', key: String(it.Put.Item.sk) });
          if (it.Update && String(it.Update.Key.sk).startsWith('$contact_1#')) tx.contacts.push({ op: 'update', key: String(it.Update.Key.sk) });
          // an outbox row holds its commit's events: the first in its fields, the rest in `more`
          if (it.Put?.Item.__edb_e__ === OUTBOX_ENTITY_NAME)
            for (const e of [it.Put.Item, ...((it.Put.Item.more as Array<Record<string, unknown>> | undefined) ?? [])]) tx.events.push({ type: String(e.detail_type), detail: e.detail as SeenTx['events'][number]['detail'] });
        }
        if (tx.contacts.length || tx.events.some((e) => e.type.startsWith('contact.'))) transactions.push(tx);
      }
      return next(args);
    },
    { step: 'initialize', name: 'watchContactTransactions' },
  );
}
/** The transactions that wrote the contact `digits`. */
const txOf = (digits: string) => transactions.filter((t) => t.contacts.some((c) => c.key.endsWith(`#contact_id_${digits}`)));

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

  it('a contact’s write and its event are ONE transaction (the outbox): typed in, edited, a first message; a refused create publishes nothing', async () => {
    watchTransactions();
    const rule = (await call<{ rule: Rule }>('POST', '/rules', { name: 'Tx created', trigger: { type: 'contact.created' }, conditions: { match: 'all', items: [] }, actions: [{ type: 'add_label', label_id: vip }] })).body.rule;
    // typed in: the contact row and contact.created in the same TransactWriteItems
    expect((await call('POST', '/contacts', { phone: '+1 415 555 0177', name: 'Atomic' })).status).toBe(201);
    expect(txOf('14155550177')).toEqual([{ contacts: [{ op: 'put', key: expect.any(String) }], events: [{ type: 'contact.created', detail: expect.objectContaining({ properties: expect.objectContaining({ contact: expect.objectContaining({ contact_id: '14155550177', display_name: 'Atomic' }) }) }) }] }]);
    // the same number again: 409, the transaction is cancelled, so no second event
    const again = await call<{ error: { code: string } }>('POST', '/contacts', { phone: '+1 415 555 0177', name: 'Twice' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('contact.exists');
    // edited: the patch and contact.updated (with the property change, from → to) in one transaction
    expect((await call('PATCH', '/contacts/14155550177', { custom_properties: { [tier]: 'Bronze' } })).status).toBe(200);
    const edit = txOf('14155550177')[2]!;
    expect(edit.contacts).toEqual([{ op: 'update', key: expect.any(String) }]);
    expect(edit.events.map((e) => e.type)).toEqual(['contact.updated']);
    expect(edit.events[0]!.detail.properties?.property_changes).toEqual([{ property_id: tier, from: null, to: 'Bronze' }]);
    // a person's first message: the contact and contact.created in one transaction
    await rt.postWebhook(inboundText(rt.phone, '15550006161', 'Hello there', { name: 'Firsttimer' }));
    await eventually(async () => txOf('15550006161').length > 0 || null, 20_000, 'the first message’s contact');
    expect(txOf('15550006161')[0]!.events.map((e) => e.type)).toEqual(['contact.created']);
    // the 409 had a cancelled transaction: the rules saw one contact.created for the typed-in number, not two
    await eventually(async () => (await logsOf(rule.rule_id)).some((l) => l.chat_id === '15550006161@c.us') || null, 20_000, 'the first message’s contact.created evaluated');
    await rt.idle();
    expect((await logsOf(rule.rule_id)).filter((l) => l.chat_id === '14155550177@c.us')).toHaveLength(1);
    // no contact write outside such a transaction published a contact event on its own
    expect(transactions.filter((t) => t.events.some((e) => e.type.startsWith('contact.')) && !t.contacts.length)).toEqual([]);
    await call('DELETE', `/rules/${rule.rule_id}`);
  });
});
