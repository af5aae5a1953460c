import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { db } from '../../shared/db/service.ts';
import { seedSampleData } from '../../scripts/local/seed-sample.ts';

/**
 * The demo workspace's sample data (issue 22 item 6): seeded through the use cases, a new user sees
 * chats with messages both ways, tickets, tasks and contacts through the API; a second run adds nothing.
 */
let rt: TestRuntime;
let admin: string;

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
}, 180_000);
afterAll(async () => rt?.cleanup());

const who = async (email: string) => ({ email, user_id: (await db().entities.member.get({ org_id: rt.orgId, email }).go()).data!.user_id! });

describe('demo sample data', () => {
  it('chats with messages both ways, tickets, tasks and contacts, once', async () => {
    const input = { orgId: rt.orgId, admin: await who(rt.adminEmail), member: await who(rt.memberEmail), phone: rt.phone };
    expect(await seedSampleData(input)).toBe(true);

    const chats = await rt.orgCall<{ chats: Array<{ chat_id: string; chat_name?: string; identity?: { username?: string } }> }>(admin, 'GET', '/chats');
    expect(chats.status).toBe(200);
    const ids = chats.body.chats.map((c) => c.chat_id);
    expect(ids).toEqual(expect.arrayContaining(['919820011122@c.us', '5511987654321@c.us', '14155550134@c.us', '919987654321@c.us']));

    const msgs = await rt.orgCall<{ messages: Array<{ from_me: boolean; body?: string; ack?: number }> }>(admin, 'GET', '/chats/919820011122@c.us/messages');
    expect(msgs.body.messages.filter((m) => !m.from_me)).toHaveLength(2);
    expect(msgs.body.messages.filter((m) => m.from_me).map((m) => m.body)).toEqual([expect.stringContaining('checking with the courier')]);
    // the reply went out through the outbound queue to the Graph stand-in
    await eventually(async () => rt.graph.sent.some((x) => JSON.stringify(x).includes('checking with the courier')), 10_000, 'the reply at the Graph stand-in');

    // issue 41: the username customer without a number, answered by BSUID (`recipient`)
    const sofia = chats.body.chats.find((c) => c.chat_id.startsWith('cht_'));
    expect(sofia).toMatchObject({ chat_name: 'Sofía Ruiz', identity: { username: '@sofia.ruiz' } });
    await eventually(async () => rt.graph.sent.some((x) => (x.body as { recipient?: string }).recipient === 'ES.17730000000000000042'), 10_000, 'the reply by recipient');

    const tickets = await rt.orgCall<{ tickets: Array<{ subject: string }> }>(admin, 'GET', '/tickets');
    expect(tickets.body.tickets.map((t) => t.subject)).toEqual(expect.arrayContaining(['Order #4821 not delivered', 'Refund a duplicate charge']));
    const tasks = (await db().entities.task.query.byId({ org_id: rt.orgId }).go({ pages: 'all' })).data;
    expect(tasks.map((t) => t.title)).toEqual(expect.arrayContaining(['Call the courier about order #4821', 'Refund the duplicate charge for Emily Carter', 'Send Arjun a quote for 50 printed tote bags']));
    const contacts = await rt.orgCall<{ contacts: Array<{ display_name: string | null }> }>(admin, 'GET', '/contacts');
    expect(contacts.body.contacts.map((c) => c.display_name)).toEqual(expect.arrayContaining(['Maya Patel', 'Lucas Oliveira', 'Emily Carter']));

    // idempotent: a second start seeds nothing more
    expect(await seedSampleData(input)).toBe(false);
    expect((await db().entities.task.query.byId({ org_id: rt.orgId }).go({ pages: 'all' })).data).toHaveLength(tasks.length);
  });
});
