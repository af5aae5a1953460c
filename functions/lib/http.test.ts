import { describe, expect, it } from 'vitest';
import { chatRefsOf, errorResponse } from './http.ts';

describe('chatRefsOf: every chat id a request names', () => {
  it('finds chat_id, chat_ids and quoted_chat_id at any depth, and a task link of type chat', () => {
    const body = {
      chat_ids: ['a@c.us', 'b@c.us'],
      quoted_chat_id: 'g@g.us',
      associated_object_metadata: { id: 'c@c.us', type: 'chat', object: { chat_id: 'd@c.us' } },
      nested: [{ deeper: { chat_id: 'e@c.us' } }],
    };
    expect([...chatRefsOf(body)].sort()).toEqual(['a@c.us', 'b@c.us', 'c@c.us', 'd@c.us', 'e@c.us', 'g@g.us']);
  });

  it('leaves out top-level keys the route refuses per chat, and ignores values that are not ids', () => {
    expect([...chatRefsOf({ chat_ids: ['a@c.us'], chat_id: 'b@c.us' }, new Set(['chat_ids']))]).toEqual(['b@c.us']);
    expect([...chatRefsOf({ chat_id: 42, chat_ids: [1, 2], associated_object_metadata: { id: 'x', type: 'ticket' } })]).toEqual([]);
    expect([...chatRefsOf(null)]).toEqual([]);
  });
});

describe('errorResponse', () => {
  it('answers a handler that ran out of time (middy early timeout) with 503 request.timeout, never 500', async () => {
    const { default: middy } = await import('@middy/core');
    const slow = middy(async () => {
      await new Promise((r) => setTimeout(r, 200));
      return { statusCode: 200 };
    }).onError(async (request) => {
      request.response = errorResponse(request.error) as never;
    });
    const out = (await slow({}, { getRemainingTimeInMillis: () => 20 } as never)) as { statusCode: number; body: string };
    expect(out.statusCode).toBe(503);
    expect(JSON.parse(out.body).error.code).toBe('request.timeout');
    expect(errorResponse(new Error('boom'))).toMatchObject({ statusCode: 500 });
  });
});
