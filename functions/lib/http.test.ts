import { describe, expect, it } from 'vitest';
import { chatRefsOf } from './http.ts';

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
