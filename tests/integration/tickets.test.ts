import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { eventually } from '../factories/wait.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Ticket, TicketAuditEntry, TicketMessage, TicketSettings } from '../../shared/ticket/ticket.schemas.ts';

/**
 * Tickets over HTTP against the local runtime: create from a message (once), attach/detach,
 * update with audit rows and events, the badge counter (also under concurrent changes), list
 * filters and sorts through their indexes, settings (admins only), other orgs refused.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
let otherOrg: string;
const chatA = '15553330001@c.us';
const chatB = '15553330002@c.us';
const otherPhone = { phone_number_id: '333000222', display_phone_number: '15553330000' };
const enc = encodeURIComponent;
let messagesA: Message[] = [];
let messageB: Message;

type Json = Record<string, unknown>;
const call = async <T = Json>(token: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@tickets.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  otherOrg = await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@tickets.chorus', sub: 'x', name: 'M2' }, phone: otherPhone });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  let ts = 1_790_200_000;
  for (const body of ['My order #123 never arrived\nPlease help', 'It was paid on Monday', 'Any update?']) await rt.postWebhook(inboundText(rt.phone, '15553330001', body, { timestampS: ts++ }));
  await rt.postWebhook(inboundText(rt.phone, '15553330002', 'Invoice question', { timestampS: ts++ }));
  await rt.idle();
  messagesA = ((await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chatA)}/messages`)).body.messages).reverse();
  messageB = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chatB)}/messages`)).body.messages[0]!;
});
afterAll(async () => rt?.cleanup());

describe('creating a ticket from a message', () => {
  let ticket: Ticket;

  it('takes the subject from the message, settings defaults, and marks the message', async () => {
    const r = await call<{ ticket: Ticket; message: Message }>(member, 'POST', '/tickets', { chat_id: chatA, quoted_message_id: messagesA[0]!.unique_id });
    expect(r.status).toBe(201);
    ticket = r.body.ticket;
    expect(ticket).toMatchObject({ subject: 'My order #123 never arrived', status: 'open', priority: 1, assignee: null, chat_id: chatA, quoted_message_id: messagesA[0]!.unique_id, message_count: 1, created_by: rt.memberEmail, closed_at: null });
    expect(r.body.message.message_ticket_id).toBe(ticket.ticket_id);
    const thread = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chatA)}/messages`)).body.messages;
    expect(thread.find((m) => m.unique_id === messagesA[0]!.unique_id)?.message_ticket_id).toBe(ticket.ticket_id);
  });

  it('refuses a second ticket for the same message (409), also when two members race', async () => {
    const again = await call(member, 'POST', '/tickets', { chat_id: chatA, quoted_message_id: messagesA[0]!.unique_id });
    expect(again.status).toBe(409);
    const race = await Promise.all([admin, member].map((tk) => call(tk, 'POST', '/tickets', { chat_id: chatB, quoted_message_id: messageB.unique_id, subject: 'Invoice' })));
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('says which field is wrong', async () => {
    const r = await call<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'POST', '/tickets', { chat_id: chatA, quoted_message_id: messagesA[1]!.unique_id, subject: 'x'.repeat(251), priority: 7 });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual(expect.arrayContaining([{ field: 'subject', reason: 'must be at most 250 characters' }, { field: 'priority', reason: 'must be 1 (Low), 2 (Medium) or 3 (High)' }]));
    const notMember = await call<{ error: { details: unknown } }>(admin, 'POST', '/tickets', { chat_id: chatA, quoted_message_id: messagesA[1]!.unique_id, assignee: 'stranger@x.com' });
    expect(notMember.status).toBe(400);
    expect(notMember.body.error.details).toEqual([{ field: 'assignee', reason: 'is not a member of this workspace' }]);
    expect((await call(admin, 'POST', '/tickets', { chat_id: chatA, quoted_message_id: '01NOTAREALULID0000000000000' })).status).toBe(404);
  });

  it('attaches a second message, lists the excerpt in order, and detaches it', async () => {
    const put = await call<{ ticket: Ticket; message: Message }>(admin, 'PUT', `/chats/${enc(chatA)}/messages/${messagesA[1]!.unique_id}/ticket`, { message_ticket_id: ticket.ticket_id });
    expect(put.status).toBe(200);
    expect(put.body.ticket.message_count).toBe(2);
    expect(put.body.message.message_ticket_id).toBe(ticket.ticket_id);
    const detail = await call<{ ticket: Ticket; messages: TicketMessage[] }>(member, 'GET', `/tickets/${ticket.ticket_id}`);
    expect(detail.body.messages.map((m) => m.body)).toEqual(['My order #123 never arrived\nPlease help', 'It was paid on Monday']);
    // a message of another chat cannot join this ticket; one already in this ticket cannot join twice
    const other = await call<{ error: { code: string } }>(admin, 'PUT', `/chats/${enc(chatB)}/messages/${messageB.unique_id}/ticket`, { message_ticket_id: ticket.ticket_id });
    expect([other.status, other.body.error.code]).toEqual([400, 'ticket.other_chat']);
    expect((await call(admin, 'PUT', `/chats/${enc(chatA)}/messages/${messagesA[1]!.unique_id}/ticket`, { message_ticket_id: ticket.ticket_id })).status).toBe(409);
    const del = await call<{ ticket: Ticket; message: Message }>(admin, 'PUT', `/chats/${enc(chatA)}/messages/${messagesA[1]!.unique_id}/ticket`, { message_ticket_id: null });
    expect(del.status).toBe(200);
    expect(del.body.ticket.message_count).toBe(1);
    expect(del.body.message.message_ticket_id ?? null).toBeNull();
    // the message a ticket came from stays
    expect((await call(admin, 'PUT', `/chats/${enc(chatA)}/messages/${messagesA[0]!.unique_id}/ticket`, { message_ticket_id: null })).status).toBe(400);
  });

  it('updates write one audit row per changed field, newest first; closing stamps closed_at', async () => {
    const up = await call<{ ticket: Ticket }>(admin, 'PATCH', `/tickets/${ticket.ticket_id}`, { status: 'inprogress', priority: 3, assignee: rt.memberEmail, subject: 'My order #123 never arrived' });
    expect(up.status).toBe(200);
    expect(up.body.ticket).toMatchObject({ status: 'inprogress', priority: 3, assignee: rt.memberEmail, last_updated_by: rt.adminEmail });
    expect(up.body.ticket.first_assigned_at).toBeGreaterThan(0);
    const closed = await call<{ ticket: Ticket }>(admin, 'PATCH', `/tickets/${ticket.ticket_id}`, { status: 'closed' });
    expect(closed.body.ticket.closed_at).toBeGreaterThan(0);
    const audit = await call<{ entries: TicketAuditEntry[] }>(member, 'GET', `/tickets/${ticket.ticket_id}/audit`);
    const actions = audit.body.entries.map((e) => e.action);
    expect(actions[0]).toBe('STATUS_CHANGED');
    expect(actions.slice(1, 4).sort()).toEqual(['ASSIGNEE_CHANGED', 'PRIORITY_CHANGED', 'STATUS_CHANGED']);
    expect(actions.slice(4)).toEqual(['MESSAGE_DETACHED', 'MESSAGE_ATTACHED', 'TICKET_CREATED']);
    expect(audit.body.entries[0]).toMatchObject({ old: { status: 'inprogress' }, new: { status: 'closed' }, by: rt.adminEmail });
    // a closed ticket takes no more messages (spec §5)
    expect((await call(admin, 'PUT', `/chats/${enc(chatA)}/messages/${messagesA[2]!.unique_id}/ticket`, { message_ticket_id: ticket.ticket_id })).status).toBe(400);
    const reopened = await call<{ ticket: Ticket }>(admin, 'PATCH', `/tickets/${ticket.ticket_id}`, { status: 'open' });
    expect(reopened.body.ticket.closed_at).toBeNull();
  });

  it('a member reply stamps the first response time once; a private note before it does not', async () => {
    expect((await call(member, 'POST', `/chats/${enc(chatA)}/notes`, { body: 'Checking the order system first', client_id: 'tfr-note' })).status).toBe(201);
    await rt.idle();
    expect((await call<{ ticket: Ticket }>(admin, 'GET', `/tickets/${ticket.ticket_id}`)).body.ticket.first_response_at).toBeNull();
    await call(member, 'POST', `/chats/${enc(chatA)}/messages`, { body: 'Looking into it now' });
    await rt.idle();
    const t = (await call<{ ticket: Ticket }>(admin, 'GET', `/tickets/${ticket.ticket_id}`)).body.ticket;
    expect(t.first_response_at).toBeGreaterThanOrEqual(t.created_at);
    expect(t.first_response_time).toBe(t.first_response_at! - t.created_at);
    await call(member, 'POST', `/chats/${enc(chatA)}/messages`, { body: 'Still on it' });
    await rt.idle();
    expect((await call<{ ticket: Ticket }>(admin, 'GET', `/tickets/${ticket.ticket_id}`)).body.ticket.first_response_at).toBe(t.first_response_at);
  });

  it("lists a chat's tickets open first", async () => {
    const r = await call<{ tickets: Ticket[] }>(member, 'GET', `/chats/${enc(chatA)}/tickets`);
    expect(r.body.tickets.map((t) => t.ticket_id)).toEqual([ticket.ticket_id]);
  });
});

describe('badge', () => {
  it('counts my open and in-progress tickets, and stays right under concurrent changes', async () => {
    const badge = async (tk: string) => (await call<{ count: number }>(tk, 'GET', '/tickets/badge')).body.count;
    const before = await badge(member);
    // 8 fresh messages -> 8 tickets assigned to the member
    let ts = 1_790_300_000;
    for (let i = 0; i < 8; i++) await rt.postWebhook(inboundText(rt.phone, '15553330009', `case ${i}`, { timestampS: ts++ }));
    await rt.idle();
    const msgs = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc('15553330009@c.us')}/messages`)).body.messages;
    const created = await Promise.all(msgs.map((m) => call<{ ticket: Ticket }>(admin, 'POST', '/tickets', { chat_id: '15553330009@c.us', quoted_message_id: m.unique_id, assignee: rt.memberEmail })));
    expect(created.every((c) => c.status === 201)).toBe(true);
    expect(await badge(member)).toBe(before + 8);
    // many concurrent changes on the same tickets from two members
    const ids = created.map((c) => c.body.ticket.ticket_id);
    const ops = ids.flatMap((id, i) => [
      call(admin, 'PATCH', `/tickets/${id}`, { status: 'inprogress' }),
      call(member, 'PATCH', `/tickets/${id}`, { status: i % 2 ? 'closed' : 'open' }),
      call(admin, 'PATCH', `/tickets/${id}`, { assignee: i % 3 ? rt.memberEmail : rt.adminEmail }),
    ]);
    const results = await Promise.all(ops);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = await Promise.all(ids.map((id) => call<{ ticket: Ticket }>(admin, 'GET', `/tickets/${id}`)));
    const expected = final.filter((f) => f.body.ticket.assignee === rt.memberEmail && f.body.ticket.status !== 'closed').length;
    expect(await badge(member)).toBe(before + expected);
    const adminExpected = final.filter((f) => f.body.ticket.assignee === rt.adminEmail && f.body.ticket.status !== 'closed').length;
    expect(await badge(admin)).toBe(adminExpected);
    // bulk: close them all; the member's badge returns to where it was
    const bulk = await call<{ updated: Ticket[]; failed: unknown[] }>(member, 'POST', '/tickets/bulk', { ticket_ids: [...ids, 'tkt_missing'], status: 'closed' });
    expect(bulk.body.updated).toHaveLength(8);
    expect(bulk.body.failed).toEqual([{ ticket_id: 'tkt_missing', reason: 'That ticket does not exist or you cannot see it.' }]);
    expect(await badge(member)).toBe(before);
    expect(await badge(admin)).toBe(0);
  });
});

describe('list', () => {
  it('filters through indexes, combines filters, sorts, pages with a cursor', async () => {
    const list = async (qs: string) => {
      const r = await call<{ tickets: Ticket[]; cursor: string | null; error?: unknown }>(admin, 'GET', `/tickets?${qs}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    await rt.idle(); // the search index follows ticket events
    const all = (await list('limit=100')).tickets;
    expect(all.length).toBe(10);
    expect(all.map((t) => t.created_at)).toEqual([...all.map((t) => t.created_at)].sort((a, b) => b - a));
    const asc = (await list('limit=100&sort=created_asc')).tickets;
    expect(asc.map((t) => t.ticket_id)).toEqual([...all.map((t) => t.ticket_id)].reverse());
    expect((await list('status=closed')).tickets.every((t) => t.status === 'closed')).toBe(true);
    expect((await list('assignee=none')).tickets.every((t) => t.assignee === null)).toBe(true);
    expect((await list('assignee=me&status=closed')).tickets.every((t) => t.assignee === rt.adminEmail && t.status === 'closed')).toBe(true);
    expect((await list(`phone_id=${rt.phone.phone_number_id}`)).tickets).toHaveLength(10);
    expect((await list('q=ORDER')).tickets.map((t) => t.subject)).toEqual(['My order #123 never arrived']);
    // prefix and a typo still find it; every word must match
    expect((await list('q=neve arived')).tickets.map((t) => t.subject)).toEqual(['My order #123 never arrived']);
    expect((await list('q=order invoice')).tickets).toEqual([]);
    const cases = (await list('q=case&limit=100')).tickets;
    expect(cases).toHaveLength(8);
    expect(cases.map((t) => t.ticket_id)).toEqual(all.filter((t) => t.subject.startsWith('case')).map((t) => t.ticket_id));
    // an admin's search page is built from the search documents (no read of the rows): every field equals the row's
    expect(cases).toEqual(all.filter((t) => t.subject.startsWith('case')));
    const s1 = await list('q=case&limit=5');
    const s2 = await list(`q=case&limit=5&cursor=${s1.cursor}`);
    expect([...s1.tickets, ...s2.tickets].map((t) => t.ticket_id)).toEqual(cases.map((t) => t.ticket_id));
    expect(s2.cursor).toBeNull();
    const byPrio = (await list('sort=priority_desc&limit=100')).tickets.map((t) => t.priority);
    expect(byPrio).toEqual([...byPrio].sort((a, b) => b - a));
    // pages: 3 + 3 + 3 + 1, no repeats, same order as one big page
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { tickets: Ticket[]; cursor: string | null } = await list(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.tickets.map((t) => t.ticket_id));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(all.map((t) => t.ticket_id));
    // filtered pages resume after the last ticket shown
    const closedAll = (await list('status=closed&limit=100')).tickets.map((t) => t.ticket_id);
    const p1 = await list('status=closed&limit=2&assignee=me');
    const p2 = await list(`status=closed&limit=2&assignee=me&cursor=${p1.cursor}`);
    expect([...p1.tickets, ...p2.tickets].map((t) => t.ticket_id)).toEqual(closedAll.filter((id) => all.find((t) => t.ticket_id === id)!.assignee === rt.adminEmail).slice(0, 4));
    // search with another filter and sort
    const closedCases = (await list('q=case&status=closed&sort=priority_desc&limit=100')).tickets;
    expect(closedCases.length).toBe(cases.filter((t) => t.status === 'closed').length);
    // search + status / assignee, filtered in the search engine: newest first, paged with limit=1, exact
    for (const qs of ['status=closed', 'status=open', 'assignee=me', 'assignee=none', 'status=closed&assignee=me']) {
      const want = cases.filter((t) => (!qs.includes('status=') || t.status === qs.match(/status=(\w+)/)![1]) && (!qs.includes('assignee=me') || t.assignee === rt.adminEmail) && (!qs.includes('assignee=none') || t.assignee === null));
      const got: Ticket[] = [];
      let c: string | null = null;
      do {
        const page: { tickets: Ticket[]; cursor: string | null } = await list(`q=case&${qs}&limit=1${c ? `&cursor=${c}` : ''}`);
        got.push(...page.tickets);
        c = page.cursor;
      } while (c);
      expect(got, qs).toEqual(want);
    }
    const bad = await call<{ error: { details: unknown } }>(admin, 'GET', '/tickets?sort=random&priority=9&cursor=zzz');
    expect(bad.status).toBe(400);
  });

  it('filters by label and due date range', async () => {
    const settings = await call<{ settings: TicketSettings }>(admin, 'PUT', '/settings/tickets', { labels: [{ name: 'Billing', color: '#22c55e' }, { name: 'Urgent', color: '#ef4444' }], default_priority: 2, default_assignee: 'none' });
    expect(settings.status).toBe(200);
    const [billing, urgent] = settings.body.settings.labels;
    const all = (await call<{ tickets: Ticket[] }>(admin, 'GET', '/tickets?limit=100')).body.tickets;
    const day = 86_400_000;
    const base = Date.UTC(2027, 0, 10);
    await call(admin, 'PATCH', `/tickets/${all[0]!.ticket_id}`, { labels: [billing!.label_id, urgent!.label_id], due_date: base });
    await call(admin, 'PATCH', `/tickets/${all[1]!.ticket_id}`, { labels: [billing!.label_id], due_date: base + 5 * day });
    await call(admin, 'PATCH', `/tickets/${all[2]!.ticket_id}`, { due_date: base + 30 * day });
    const byLabel = (await call<{ tickets: Ticket[] }>(admin, 'GET', `/tickets?label=${billing!.label_id}`)).body.tickets.map((t) => t.ticket_id);
    expect(byLabel).toEqual([all[0]!.ticket_id, all[1]!.ticket_id]);
    expect((await call<{ tickets: Ticket[] }>(admin, 'GET', `/tickets?label=${urgent!.label_id}`)).body.tickets.map((t) => t.ticket_id)).toEqual([all[0]!.ticket_id]);
    // removing a label removes the ticket from that label's list
    await call(admin, 'PATCH', `/tickets/${all[0]!.ticket_id}`, { labels: [urgent!.label_id] });
    expect((await call<{ tickets: Ticket[] }>(admin, 'GET', `/tickets?label=${billing!.label_id}`)).body.tickets.map((t) => t.ticket_id)).toEqual([all[1]!.ticket_id]);
    const range = (await call<{ tickets: Ticket[] }>(admin, 'GET', `/tickets?due_from=${base}&due_to=${base + 10 * day}`)).body.tickets.map((t) => t.ticket_id);
    expect(range).toEqual([all[0]!.ticket_id, all[1]!.ticket_id]);
    const dueSorted = (await call<{ tickets: Ticket[] }>(admin, 'GET', '/tickets?sort=due_asc&limit=3')).body.tickets.map((t) => t.due_date);
    expect(dueSorted).toEqual([base, base + 5 * day, base + 30 * day]);
    // unknown labels are refused
    expect((await call(admin, 'PATCH', `/tickets/${all[0]!.ticket_id}`, { labels: ['tl_nope'] })).status).toBe(400);
  });
});

describe('settings and permissions', () => {
  it('members read settings but cannot change them', async () => {
    expect((await call(member, 'GET', '/settings/tickets')).status).toBe(200);
    const r = await call<{ error: { code: string } }>(member, 'PUT', '/settings/tickets', { labels: [], default_priority: 1, default_assignee: 'none' });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('ticket_settings.forbidden');
  });

  it('new tickets take the default priority and the chat assignee when configured', async () => {
    await call(admin, 'PUT', '/settings/tickets', { labels: [], default_priority: 3, default_assignee: 'none' });
    const r = await call<{ ticket: Ticket }>(admin, 'POST', '/tickets', { chat_id: chatA, quoted_message_id: messagesA[2]!.unique_id });
    expect(r.body.ticket).toMatchObject({ priority: 3, assignee: null, subject: 'Any update?' });
  });

  it("search never returns another org's tickets", async () => {
    const outsiderCall = (path: string) => rt.api(outsider, `/api/orgs/${otherOrg}${path}`).then(async (r) => (await r.json()) as { tickets: Ticket[] });
    expect((await outsiderCall('/tickets?q=order')).tickets).toEqual([]);
    expect((await outsiderCall('/tickets?q=case')).tickets).toEqual([]);
  });

  it("another org's tickets are refused on every route", async () => {
    const theirs = await rt.api(outsider, `/api/orgs/${otherOrg}/tickets`);
    expect(theirs.status).toBe(200);
    const mine = (await call<{ tickets: Ticket[] }>(admin, 'GET', '/tickets?limit=1')).body.tickets[0]!;
    const paths: Array<[string, string, unknown?]> = [
      ['GET', '/tickets'],
      ['POST', '/tickets', { chat_id: chatA, quoted_message_id: messagesA[2]!.unique_id }],
      ['GET', '/tickets/badge'],
      ['POST', '/tickets/bulk', { ticket_ids: [mine.ticket_id], status: 'closed' }],
      ['GET', `/tickets/${mine.ticket_id}`],
      ['PATCH', `/tickets/${mine.ticket_id}`, { status: 'closed' }],
      ['GET', `/tickets/${mine.ticket_id}/audit`],
      ['PUT', `/chats/${enc(chatA)}/messages/${messagesA[2]!.unique_id}/ticket`, { message_ticket_id: null }],
      ['GET', `/chats/${enc(chatA)}/tickets`],
      ['GET', '/settings/tickets'],
      ['PUT', '/settings/tickets', { labels: [], default_priority: 1, default_assignee: 'none' }],
    ];
    for (const [method, path, json] of paths) {
      const r = await rt.api(outsider, `/api/orgs/${rt.orgId}${path}`, { method, json });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('organization.not_found');
    }
    // and a ticket id of this org asked for inside the outsider's own org is simply not there
    expect((await rt.api(outsider, `/api/orgs/${otherOrg}/tickets/${mine.ticket_id}`)).status).toBe(404);
    expect((await call<{ ticket: Ticket }>(admin, 'GET', `/tickets/${mine.ticket_id}`)).body.ticket.status).toBe(mine.status);
  });
});

describe('realtime', () => {
  it('ticket events reach the org over the socket', async () => {
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${encodeURIComponent(member)}&org_id=${encodeURIComponent(rt.orgId)}`);
    const got: Array<{ type: string; properties: { ticket?: Ticket } }> = [];
    ws.on('message', (d) => got.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once('open', r));
    const mine = (await call<{ tickets: Ticket[] }>(admin, 'GET', '/tickets?limit=1&status=open')).body.tickets[0]!;
    await call(admin, 'PATCH', `/tickets/${mine.ticket_id}`, { status: 'closed' });
    await eventually(async () => got.find((e) => e.type === 'ticket.closed')?.properties.ticket?.ticket_id === mine.ticket_id, 10_000, 'ticket.closed on the socket');
    ws.close();
  });
});
