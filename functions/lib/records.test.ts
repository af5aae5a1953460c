import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SQSRecord } from 'aws-lambda';
import { parseCommandRecord, parseEventRecord } from './records.ts';

/** An SQS record as the local queue and AWS deliver it, with `body` as given. */
const sqsRecord = (body: string): SQSRecord => ({
  messageId: '0b4f0e1c-1b1e-4b0e-9a4e-1f6f2b1d2c3a',
  receiptHandle: 'r',
  body,
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: '1764072000000', SenderId: 'local', ApproximateFirstReceiveTimestamp: '1764072000000' },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:flag-responses',
  awsRegion: 'us-east-1',
});

/** An EventBridge event of the catalogue, as an EventBridge -> SQS target writes it into the body. */
const eventBody = (detailType: string, properties: unknown) =>
  JSON.stringify({
    version: '0',
    id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
    'detail-type': detailType,
    source: 'chorus',
    account: '000000000000',
    time: '2026-11-25T12:00:00Z',
    region: 'us-east-1',
    resources: [],
    detail: { properties, metadata: { id: `${detailType}:1`, version: 1, occurred_at: '2026-11-25T12:00:00.000Z', actor: 'system' } },
  });

const message = { chat_id: '447700900123@c.us', unique_id: 'u1', timestamp: 1764072000000, from_me: true, ack: 0, message_type: 'chat', org_phone: '447700900000' };
const chat = { chat_id: '447700900123@c.us', org_id: 'org1', latest_message_timestamp: 1764072000000 };

describe('parseEventRecord (Powertools Parser: SQS record -> JSON body -> EventBridge -> catalogue detail)', () => {
  it('types a subscribed event by the catalogue, passing the wire fields through', () => {
    const e = parseEventRecord(sqsRecord(eventBody('message.sent', { org_id: 'org1', chat, message })), 'flag-responses');
    expect(e['detail-type']).toBe('message.sent');
    expect(e.detail.properties.message.chat_id).toBe(message.chat_id);
    expect((e.detail.properties.message as Record<string, unknown>).org_phone).toBe('447700900000');
    expect(e.detail.metadata.id).toBe('message.sent:1');
  });

  it('picks the schema by detail-type in a subscription with many events', () => {
    const e = parseEventRecord(sqsRecord(eventBody('chat.read', { org_id: 'org1', chat, email: 'a@b.c' })), 'realtime-fanout');
    expect(e['detail-type']).toBe('chat.read');
  });

  it('refuses an event the subscription does not take', () => {
    expect(() => parseEventRecord(sqsRecord(eventBody('ticket.created', { org_id: 'org1' })), 'flag-responses')).toThrow();
  });

  it('refuses properties that break the event contract, with the path into the body', () => {
    try {
      parseEventRecord(sqsRecord(eventBody('message.sent', { org_id: 'org1', chat, message: { ...message, ack: 9 } })), 'flag-responses');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(z.ZodError);
      expect((e as z.ZodError).issues[0]!.path).toEqual(['body', 'detail', 'properties', 'message', 'ack']);
    }
  });

  it('refuses a body that is not JSON or not an EventBridge event', () => {
    expect(() => parseEventRecord(sqsRecord('not json'), 'flag-responses')).toThrow();
    expect(() => parseEventRecord(sqsRecord(JSON.stringify({ detail: {} })), 'flag-responses')).toThrow();
  });
});

describe('parseCommandRecord', () => {
  const Wakeup = z.object({ org_id: z.string(), chat_id: z.string(), snooze_until: z.number() });
  it('parses the JSON body against the command schema', () => {
    expect(parseCommandRecord(sqsRecord(JSON.stringify({ org_id: 'o', chat_id: 'c', snooze_until: 1 })), Wakeup)).toEqual({ org_id: 'o', chat_id: 'c', snooze_until: 1 });
  });
  it('refuses a body that breaks it', () => {
    expect(() => parseCommandRecord(sqsRecord(JSON.stringify({ org_id: 'o' })), Wakeup)).toThrow(z.ZodError);
  });
});
