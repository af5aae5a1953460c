import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { db } from '../../shared/db/service.ts';
import { seedSampleData } from '../../scripts/local/seed-sample.ts';
import { GraphStandIn } from '../../scripts/local/graph-standin.ts';
import { serveGraphStandIn, type ServedGraph } from '../factories/graph-standin.ts';

/**
 * The demo workspace's sample data (issue 22 item 6): seeded through the use cases, a new user sees
 * chats with messages both ways, tickets, tasks and contacts through the API; a second run adds nothing.
 * Issue 42 §4: the sample replies never leave the machine. WHATSAPP_GRAPH_URL points at a recorder
 * (a Graph stand-in on its own port, as a real Graph API would be): the seed stores its replies as
 * delivered and sends nothing there.
 */
let rt: TestRuntime;
let admin: string;
let recorder: GraphStandIn;
let served: ServedGraph;
const savedEnv = { ...process.env };

beforeAll(async () => {
  recorder = new GraphStandIn();
  served = await serveGraphStandIn(() => recorder);
  process.env.WHATSAPP_GRAPH_URL = served.url;
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
}, 180_000);
afterAll(async () => {
  await rt?.cleanup();
  await served?.close();
  process.env = savedEnv;
});

const who = async (email: string) => ({ email, user_id: (await db().entities.member.get({ org_id: rt.orgId, email }).go()).data!.user_id! });

describe('demo sample data', () => {
  it('chats with messages both ways, tickets, tasks and contacts, once', async () => {
    const input = { orgId: rt.orgId, admin: await who(rt.adminEmail), member: await who(rt.memberEmail), phone: rt.phone };
    expect(await seedSampleData(input)).toBe(true);

    const chats = await rt.orgCall<{ chats: Array<{ chat_id: string; chat_name?: string; identity?: { username?: string } }> }>(admin, 'GET', '/chats');
    expect(chats.status).toBe(200);
    const ids = chats.body.chats.map((c) => c.chat_id);
    expect(ids).toEqual(expect.arrayContaining(['919820011122@c.us', '5511987654321@c.us', '14155550134@c.us', '919987654321@c.us']));

    const msgs = await rt.orgCall<{ messages: Array<{ from_me: boolean; body?: string; ack?: number; message_id?: string }> }>(admin, 'GET', '/chats/919820011122@c.us/messages');
    expect(msgs.body.messages.filter((m) => !m.from_me)).toHaveLength(2);
    expect(msgs.body.messages.filter((m) => m.from_me).map((m) => m.body)).toEqual([expect.stringContaining('checking with the courier')]);
    // issue 42 §4: stored as delivered (two ticks), not queued for WhatsApp
    expect(msgs.body.messages.filter((m) => m.from_me).map((m) => m.ack)).toEqual([2]);

    // issue 41: the username customer without a number, answered by BSUID (`recipient`)
    const sofia = chats.body.chats.find((c) => c.chat_id.startsWith('cht_'));
    expect(sofia).toMatchObject({ chat_name: 'Sofía Ruiz', identity: { username: '@sofia.ruiz' } });
    const sofiaMsgs = await rt.orgCall<{ messages: Array<{ from_me: boolean; ack?: number }> }>(admin, 'GET', `/chats/${encodeURIComponent(sofia!.chat_id)}/messages`);
    expect(sofiaMsgs.body.messages.filter((m) => m.from_me).map((m) => m.ack)).toEqual([2]);

    const tickets = await rt.orgCall<{ tickets: Array<{ subject: string }> }>(admin, 'GET', '/tickets');
    expect(tickets.body.tickets.map((t) => t.subject)).toEqual(expect.arrayContaining(['Order #4821 not delivered', 'Refund a duplicate charge']));
    const tasks = (await db().entities.task.query.byId({ org_id: rt.orgId }).go({ pages: 'all' })).data;
    expect(tasks.map((t) => t.title)).toEqual(expect.arrayContaining(['Call the courier about order #4821', 'Refund the duplicate charge for Emily Carter', 'Send Arjun a quote for 50 printed tote bags']));
    const contacts = await rt.orgCall<{ contacts: Array<{ display_name: string | null }> }>(admin, 'GET', '/contacts');
    expect(contacts.body.contacts.map((c) => c.display_name)).toEqual(expect.arrayContaining(['Maya Patel', 'Lucas Oliveira', 'Emily Carter']));

    // idempotent: a second start seeds nothing more
    expect(await seedSampleData(input)).toBe(false);
    expect((await db().entities.task.query.byId({ org_id: rt.orgId }).go({ pages: 'all' })).data).toHaveLength(tasks.length);

    // issue 42 §4: nothing of the seed reached the configured Graph API. A probe sent afterwards in
    // the same chats (same queue groups, so behind anything the seed could have queued) arrives
    // there, and it is all that arrived.
    // the one in Maya's chat quotes the seeded reply: a delivered sample message is found by its wamid like a sent one
    const seededReply = msgs.body.messages.find((m) => m.from_me)!.message_id;
    expect(seededReply).toMatch(/^wamid\./);
    for (const [chatId, quoted] of [['919820011122@c.us', seededReply], [sofia!.chat_id, undefined]] as const) {
      const probe = await rt.orgCall(admin, 'POST', `/chats/${encodeURIComponent(chatId)}/messages`, { body: `probe ${chatId}`, ...(quoted ? { quoted_message_id: quoted } : {}) });
      expect(probe.status, JSON.stringify(probe.body)).toBe(201);
    }
    await eventually(async () => recorder.sent.filter((x) => JSON.stringify(x.body).includes('probe ')).length === 2, 15_000, 'both probes at the recorder');
    expect(recorder.sent.map((x) => JSON.stringify(x.body))).toEqual([expect.stringContaining('probe '), expect.stringContaining('probe ')]);
    expect(rt.graph.sent).toHaveLength(0);
  });
});
