import { describe, expect, it } from 'vitest';
import { pairQueues, queueDisplayName } from './sqs-queue-status.ts';

const arn = (name: string) => `arn:aws:sqs:eu-west-1:123456789012:${name}`;

describe('SQS queue status (issue 19 dashboard, AWS)', () => {
  it('names a queue without the stack prefix and CloudFormation suffix', () => {
    expect(queueDisplayName(arn('Prod-ChorusEvents-RealtimeFanoutQueue4F2A1B3C-Xy7TQ0ABCD12'), 'Prod-ChorusEvents')).toBe('RealtimeFanoutQueue4F2A1B3C');
    expect(queueDisplayName(arn('Prod-ChorusEvents-WaWebInboundQueue-ABCDEFGH12.fifo'), 'Prod-ChorusEvents')).toBe('WaWebInboundQueue');
  });

  it('pairs each work queue with the dead-letter queue its redrive policy names', () => {
    const rows = [
      { url: 'u1', arn: arn('S-RulesQueue-AAAAAAAAAA'), visible: 3, inFlight: 2, dlqArn: arn('S-RulesDlq-BBBBBBBBBB') },
      { url: 'u2', arn: arn('S-RulesDlq-BBBBBBBBBB'), visible: 7, inFlight: 0, dlqArn: null },
      { url: 'u3', arn: arn('S-AiQueue-CCCCCCCCCC'), visible: 0, inFlight: 0, dlqArn: arn('S-AiDlq-DDDDDDDDDD') },
    ];
    expect(pairQueues(rows, 'S')).toEqual([
      { name: 'AiQueue', depth: 0, dead_letters: 0 },
      { name: 'RulesQueue', depth: 5, dead_letters: 7 },
    ]);
  });
});
