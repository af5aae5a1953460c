import { db } from '../../shared/db/service.ts';
import type { Actor } from '../../shared/auth/actor.ts';
import { createContact } from '../../shared/contact/contact.ts';
import { ingestWebhookBody } from '../../shared/inbox/ingest.ts';
import { sendMessage } from '../../shared/inbox/send.ts';
import { listMessages } from '../../shared/message/message.ts';
import { createTicket } from '../../shared/ticket/ticket.ts';
import { CreateTaskInput } from '../../shared/task/task.schemas.ts';
import { createTask } from '../../shared/task/task.ts';
import { envelope, inboundText, newWamid, type PhoneMeta } from '../../shared/whatsapp/cloud/payloads.ts';
import { opaqueChatIdFor } from '../../shared/contact/opaque-id.ts';
import { log } from '../../shared/log.ts';

/**
 * The demo workspace's sample data (issue 22 item 6), so a new user of `npm start` sees a working
 * inbox at once: four customers (contacts with labels and notes), one with a WhatsApp username and no
 * shared number (issue 41), their chats with messages both
 * ways (inbound through the WhatsApp webhook ingest, replies through the send use case, stored as
 * already delivered and never queued: issue 42 §4, the numbers are made up and may be real people's,
 * so sample data never reaches any Graph API, the stand-in or a real one that WHATSAPP_GRAPH_URL
 * names), two tickets, and three tasks. Everything goes through the
 * domain's use cases (the same code the API runs), never raw puts, so counters, the search index,
 * analytics and the audit log see it like real traffic.
 *
 * Idempotent: the org row's `org_metadata.demo_sample_seeded_at` (epoch ms) marks a seeded org; a
 * second run does nothing. `npm run demo:reset` starts on a fresh demo org (scripts/local/seed.ts
 * `retireDemoOrg`) and seeds it again.
 */
export interface SampleSeedInput {
  orgId: string;
  admin: { email: string; user_id: string };
  member: { email: string; user_id: string };
  phone: PhoneMeta;
  /** epoch ms; default now */
  now?: number;
}

interface Customer {
  name: string;
  /** E.164 without '+', WhatsApp's wa_id */
  wa: string;
  label: string | null;
  notes: string;
  /** inbound texts, with minutes before now */
  inbound: Array<[string, number]>;
  reply?: string;
}

const CUSTOMERS: Customer[] = [
  {
    name: 'Maya Patel',
    wa: '919820011122',
    label: 'VIP',
    notes: 'Orders every month. Prefers WhatsApp over email.',
    inbound: [
      ['Hi! My order #4821 has not arrived yet, it has been 6 days 😟', 95],
      ['The tracking page says "in transit" since Monday.', 94],
    ],
    reply: 'Sorry about that, Maya! I am checking with the courier now and will update you within the hour.',
  },
  {
    name: 'Lucas Oliveira',
    wa: '5511987654321',
    label: 'Lead',
    notes: 'Asked about shipping to Brazil.',
    inbound: [['Olá! Do you ship to São Paulo? How long does it take?', 60]],
    reply: 'Olá Lucas! Yes, we ship across Brazil in 3–5 business days, tracking included.',
  },
  {
    name: 'Emily Carter',
    wa: '14155550134',
    label: 'Billing',
    notes: 'Annual plan since 2024.',
    inbound: [
      ['Hello, I was charged twice for my subscription this month.', 40],
      ['Can you refund one of the charges please?', 39],
    ],
    reply: 'Hi Emily, thanks for flagging it. I can see both charges and have opened a ticket for the refund.',
  },
  {
    name: 'Arjun Mehta',
    wa: '919987654321',
    label: null,
    notes: '',
    inbound: [["Hello, I'd like a quote for 50 units of the blue tote bag, with our logo printed.", 8]],
  },
];

const chatIdOf = (wa: string) => `${wa}@c.us`;

/** How the sample replies are sent: stored as delivered (a made-up wamid), never queued for WhatsApp. */
const seeded = () => ({ delivered: { wamid: newWamid() } });

/**
 * A customer with a WhatsApp username whose number WhatsApp withholds (issue 41): known to the
 * business only by a business-scoped user id. Her chat has an opaque id, and the reply goes out
 * with `recipient` instead of `to` (whatsapp-protocols.md §E.1).
 */
const USERNAME_CUSTOMER = {
  user_id: 'ES.17730000000000000042',
  username: '@sofia.ruiz',
  name: 'Sofía Ruiz',
  inbound: [['Hola, ¿tenéis la mochila verde en talla grande?', 25]] as Array<[string, number]>,
  reply: '¡Hola Sofía! Sí, la tenemos en talla grande. ¿Te reservo una?',
};

/** @returns true when it seeded, false when the org had its sample data already */
export async function seedSampleData(input: SampleSeedInput): Promise<boolean> {
  const now = input.now ?? Date.now();
  const s = db().entities;
  const org = (await s.organization.get({ org_id: input.orgId }).go()).data;
  if (!org) throw new Error(`seedSampleData: no org ${input.orgId}`);
  const meta = (org.org_metadata ?? {}) as Record<string, unknown>;
  if (meta.demo_sample_seeded_at) return false;

  const admin: Actor = { email: input.admin.email, user_id: input.admin.user_id, org_id: input.orgId, role: 'admin' };
  const member: Actor = { email: input.member.email, user_id: input.member.user_id, org_id: input.orgId, role: 'member' };
  const labels = new Map((await s.chatLabel.query.byOrg({ org_id: input.orgId }).go({ pages: 'all' })).data.map((l) => [l.name, l.label_id]));

  for (const c of CUSTOMERS) {
    const label = c.label ? labels.get(c.label) : undefined;
    await createContact(admin, { phone: `+${c.wa}`, name: c.name, ...(label ? { label_ids: [label] } : {}), ...(c.notes ? { notes: c.notes } : {}) }).catch((e: unknown) =>
      log('warn', 'demo.contact_skipped', { name: c.name, error: String(e) }),
    );
    for (const [text, minutesAgo] of c.inbound) {
      const payload = inboundText(input.phone, c.wa, text, { name: c.name, id: newWamid(), timestampS: Math.floor((now - minutesAgo * 60_000) / 1000) });
      await ingestWebhookBody(JSON.stringify(payload));
    }
    if (c.reply) await sendMessage(admin, chatIdOf(c.wa), { body: c.reply }, seeded());
  }

  // issue 41: a username customer without a number, as Meta's 2026 webhooks send her (no wa_id, no from)
  const u = USERNAME_CUSTOMER;
  for (const [text, minutesAgo] of u.inbound) {
    const payload = envelope(input.phone, {
      contacts: [{ user_id: u.user_id, profile: { name: u.name, username: u.username } }],
      messages: [{ from_user_id: u.user_id, id: newWamid(), timestamp: String(Math.floor((now - minutesAgo * 60_000) / 1000)), type: 'text', text: { body: text } }],
    });
    await ingestWebhookBody(JSON.stringify(payload));
  }
  await sendMessage(admin, opaqueChatIdFor(u.user_id), { body: u.reply }, seeded());

  const firstInbound = async (wa: string) => {
    const { messages } = await listMessages(admin, chatIdOf(wa), { limit: 50 } as Parameters<typeof listMessages>[2]);
    const m = messages.filter((x) => !x.from_me).sort((a, b) => a.timestamp - b.timestamp)[0];
    if (!m) throw new Error(`seedSampleData: no inbound message in ${wa}`);
    return m.unique_id;
  };
  const day = 86_400_000;
  await createTicket(admin, { chat_id: chatIdOf('919820011122'), quoted_message_id: await firstInbound('919820011122'), subject: 'Order #4821 not delivered', priority: 3, assignee: admin.email, due_date: now + day });
  await createTicket(admin, { chat_id: chatIdOf('14155550134'), quoted_message_id: await firstInbound('14155550134'), subject: 'Refund a duplicate charge', priority: 2, assignee: member.email, due_date: now + 2 * day });

  for (const [actor, t] of [
    [admin, { title: 'Call the courier about order #4821', priority: 3, due_date: now + 2 * 3_600_000 }],
    [member, { title: 'Refund the duplicate charge for Emily Carter', priority: 2, due_date: now + day }],
    [admin, { title: 'Send Arjun a quote for 50 printed tote bags', priority: 1, due_date: now + 3 * day }],
  ] as const) {
    await createTask(actor, CreateTaskInput.parse(t));
  }

  const latest = ((await s.organization.get({ org_id: input.orgId }).go()).data?.org_metadata ?? {}) as Record<string, unknown>;
  await s.organization
    .patch({ org_id: input.orgId })
    .set({ org_metadata: { ...latest, demo_sample_seeded_at: now } })
    .go();
  return true;
}
