import { describe, expect, it } from 'vitest';
import { webhookDedupeId, webhookGroupId } from './group.ts';

const body = (value: Record<string, unknown>) => ({ object: 'whatsapp_business_account', entry: [{ id: 'w', changes: [{ field: 'messages', value: { metadata: { phone_number_id: 'P1' }, ...value } }] }] });

describe('webhookGroupId', () => {
  it('keys a message by its number and chat (1:1 and group)', () => {
    expect(webhookGroupId(body({ messages: [{ from: '155501' }] }))).toBe('P1:155501@c.us');
    expect(webhookGroupId(body({ messages: [{ from: '155501', group_id: 'G9' }] }))).toBe('P1:G9@g.us');
  });
  it('keys a status by its recipient, so it queues behind its chat', () => {
    expect(webhookGroupId(body({ statuses: [{ recipient_id: '155501' }] }))).toBe('P1:155501@c.us');
  });
  it('gives bodies without a chat one group per number, and unparsed ones a fallback', () => {
    expect(webhookGroupId(body({}))).toBe('P1:-');
    expect(webhookGroupId(undefined)).toBe('-:-');
  });
  it('hashes keys over the SQS limit of 128 characters', () => {
    expect(webhookGroupId(body({ messages: [{ from: 'x'.repeat(200) }] }))).toHaveLength(64);
  });
  it('dedupes by content', () => {
    expect(webhookDedupeId('a')).toBe(webhookDedupeId('a'));
    expect(webhookDedupeId('a')).not.toBe(webhookDedupeId('b'));
  });
});
