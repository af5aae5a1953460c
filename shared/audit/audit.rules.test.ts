import { describe, expect, it } from 'vitest';
import { areaOfKind, auditBodyOf, auditOfAdminAction, auditOfChatUpdate, auditOfTicketUpdate, labelList } from './audit.rules.ts';

/** Issue 49 §5: audit rows name labels, keep no secrets, and every kind prefix has an area. */
describe('audit rules', () => {
  const names = new Map([['lbl_01VIP', 'VIP']]);

  it('names labels by their name, an unknown id as it is', () => {
    expect(labelList(['lbl_01VIP', 'lbl_gone'], names)).toBe('VIP, lbl_gone');
    expect(labelList([], names)).toBe('none');
    const [row] = auditOfChatUpdate('user:ana@x.com', { chat_id: 'c1', chat_name: 'Bruna', label_ids: ['lbl_01VIP'] }, ['label_ids'], names);
    expect(row!.summary).toBe("set the chat's labels to VIP (Bruna)");
    const [t] = auditOfTicketUpdate('user:ana@x.com', { ticket_id: 't1', subject: 'Refund', labels: ['lbl_01VIP'] }, ['labels'], names);
    expect(t!.summary).toBe("set the ticket's labels to VIP: Refund");
  });

  it('keeps request fields but no secrets, tokens or bulk data', () => {
    expect(auditBodyOf({ name: 'k', secret: 's', token: 't', api_key: 'x', data: 'csv', enabled: true })).toEqual({ name: 'k', enabled: true });
    expect(auditBodyOf({ note: 'x'.repeat(300) })!.note).toHaveLength(201);
    expect(auditBodyOf({ url: 'https://hooks.slack.com/services/T0/B0/secretpart', events: ['a'] })).toEqual({ url: 'https://hooks.slack.com/…', events: ['a'] });
    expect(auditBodyOf({ headers: { authorization: 'x' } })).toBeUndefined();
    expect(auditBodyOf({ actions: [{ type: 'webhook', url: 'https://x.example/h?token=abc', secret: 's' }] })).toEqual({ actions: [{ type: 'webhook', url: 'https://x.example/…' }] });
    expect(auditBodyOf(undefined)).toBeUndefined();
  });

  it('maps kinds to the areas the log filters by, and says a rename before → after', () => {
    expect(areaOfKind('rule.created')).toBe('rules');
    expect(areaOfKind('apikey.revoked')).toBe('api');
    expect(areaOfKind('import.started')).toBe('imports');
    expect(areaOfKind('nope.x')).toBeUndefined();
    expect(auditOfAdminAction({ area: 'settings', action: 'settings.general_changed', target: 'general', details: { org_name: 'New', before_org_name: 'Old' } }).summary).toBe('renamed the workspace from Old to New');
    expect(auditOfAdminAction({ area: 'settings', action: 'settings.general_changed', target: 'general', details: { time_zone: 'UTC' } }).summary).toBe('changed the general settings');
  });
});
