import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundMessage, inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import type { Rule, RuleLog } from '../../shared/rules/rule.schemas.ts';

/**
 * The rules' reaction trigger (issue 17 §1 "reaction added") against the local runtime: a customer's
 * reaction (Cloud API webhook) is written with a `message.reaction` event in the same transaction
 * (the outbox), and the rules consumer fires 'reaction.added' with `reaction.emoji` as a condition
 * field and `{{reaction.emoji}}` in templates. A removal, and a member's own reaction, fire nothing.
 */
let rt: TestRuntime;
let admin: string;
const enc = encodeURIComponent;
const call = async <T = Record<string, unknown>>(method: string, path: string, json?: unknown) => rt.orgCall<T>(admin, method, path, json);
const logsOf = async (ruleId: string) => (await call<{ logs: RuleLog[] }>('GET', `/logs/rules?rule_id=${ruleId}`)).body.logs;
type Msg = { body?: string; is_private_note?: boolean; unique_id: string; message_id?: string; from_me?: boolean };
const messagesOf = async (chatId: string) => (await call<{ messages: Msg[] }>('GET', `/chats/${enc(chatId)}/messages`)).body.messages;
const react = (from: string, targetWamid: string, emoji: string | null) =>
  rt.postWebhook(inboundMessage(rt.phone, { from, name: 'Rita', type: 'reaction', fields: { reaction: { message_id: targetWamid, ...(emoji ? { emoji } : {}) } } }));

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
}, 120_000);

afterAll(async () => {
  await rt?.cleanup();
});

describe('reaction trigger (issue 17 §1)', () => {
  it('a customer reaction fires reaction.added once, with the emoji as a field and a variable; removals and our reactions fire nothing', async () => {
    const from = '15550006161';
    const chatId = `${from}@c.us`;
    const wamid = newWamid();
    await rt.postWebhook(inboundText(rt.phone, from, 'Here is my order', { id: wamid, name: 'Rita' }));
    const target = await eventually(async () => (await messagesOf(chatId)).find((m) => m.message_id === wamid) ?? null, 20_000, 'the customer message');

    const rule = (await call<{ rule: Rule }>('POST', '/rules', {
      name: 'Thumbs up',
      trigger: { type: 'reaction.added' },
      conditions: { match: 'all', items: [{ field: 'reaction.emoji', op: 'in', value: ['👍', '❤️'] }] },
      actions: [{ type: 'private_note', body: '{{contact.name}} reacted {{reaction.emoji}} to “{{message.body}}”' }],
    })).body.rule;
    expect(rule.trigger).toEqual({ type: 'reaction.added' });

    // the reaction's event is an outbox row of the same transaction: the consumer evaluates it once
    await react(from, wamid, '👍');
    const matched = await eventually(async () => (await logsOf(rule.rule_id)).find((l) => l.outcome === 'matched') ?? null, 20_000, 'reaction.added matched');
    expect(matched).toMatchObject({ trigger: 'reaction.added', chat_id: chatId });
    expect(matched.actions[0]).toMatchObject({ type: 'private_note', status: 'done' });
    const note = await eventually(async () => (await messagesOf(chatId)).find((m) => m.is_private_note) ?? null, 20_000, 'the note');
    expect(note.body).toBe('Rita reacted 👍 to “Here is my order”');

    // another emoji: evaluated, not matched, the reason names it
    await react(from, wamid, '😮');
    const miss = await eventually(async () => (await logsOf(rule.rule_id)).find((l) => l.outcome === 'not_matched') ?? null, 20_000, '😮 not matched');
    expect(miss.reasons.join(' ')).toContain('😮');

    // a removal (no emoji) and the team's own reaction fire nothing; a later customer reaction shows the consumer kept up
    await react(from, wamid, null);
    expect((await call('POST', `/chats/${enc(chatId)}/messages/${target.unique_id}/reaction`, { reaction: '❤️' })).status).toBeLessThan(300);
    await react(from, wamid, '❤️');
    await eventually(async () => ((await logsOf(rule.rule_id)).filter((l) => l.outcome === 'matched').length === 2) || null, 20_000, 'the second match');
    const logs = await logsOf(rule.rule_id);
    expect(logs.filter((l) => l.trigger === 'reaction.added')).toHaveLength(3); // 👍, 😮 and the last ❤️: not the removal, not ours
    const notes = (await messagesOf(chatId)).filter((m) => m.is_private_note);
    expect(notes).toHaveLength(2);
    // one receipt per action: redelivery could not double it
    const receipts = (await db().entities.ruleAction.query.byKey({ org_id: rt.orgId, action_key: `${matched.event_id}|${rule.rule_id}|0` }).go()).data;
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ status: 'done' });
  });
});
