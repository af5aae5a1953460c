import { describe, expect, it } from 'vitest';
import { fillVariables, filterReplies, slashQuery, variableProblem, variablesIn } from './reply.rules.ts';
import { QuickReplyInput } from './reply.schemas.ts';

describe('quick reply variables', () => {
  it('finds and checks variables', () => {
    expect(variablesIn('Hi {{ contact.name }}, I am {{member.name}}')).toEqual(['contact.name', 'member.name']);
    expect(variableProblem('Hi {{Contact.Name}} {{property.Customer tier}}')).toBeNull();
    expect(variableProblem('Hi {{contact.phone}}')).toMatch(/unknown variable \{\{contact\.phone\}\}/);
    expect(variableProblem('Hi {{property.}}')).toMatch(/unknown variable/);
  });
  it('fills variables; missing values become empty, property names match case-insensitively', () => {
    const ctx = { contactName: 'Ravi Kumar', memberName: 'Asha', properties: { 'Customer tier': 'Gold' } };
    expect(fillVariables('Hi {{contact.first_name}} ({{contact.name}}), {{member.name}} here. Tier: {{ property.customer TIER }}.', ctx)).toBe('Hi Ravi (Ravi Kumar), Asha here. Tier: Gold.');
    expect(fillVariables('Hi {{contact.name}}! {{property.City}}', {})).toBe('Hi ! ');
  });
});

describe('the / picker', () => {
  it('opens only while the first word starts with / and the caret is in it', () => {
    expect(slashQuery('/', 1)).toBe('');
    expect(slashQuery('/Th', 3)).toBe('th');
    expect(slashQuery('/th more', 3)).toBe('th');
    expect(slashQuery('/th more', 8)).toBeNull();
    expect(slashQuery('hello /th', 9)).toBeNull();
    expect(slashQuery('/thanks', 3)).toBeNull();
  });
  it('ranks shortcut prefix, then shortcut contains, then text', () => {
    const rs = [
      { shortcut: 'thanks', text: 'Thank you!' },
      { shortcut: 'bye', text: 'Thanks and bye' },
      { shortcut: 'pathway', text: 'x' },
      { shortcut: 'hours', text: 'Open 9-5' },
    ];
    expect(filterReplies(rs, 'th').map((r) => r.shortcut)).toEqual(['thanks', 'pathway', 'bye']);
    expect(filterReplies(rs, '').map((r) => r.shortcut)).toEqual(['bye', 'hours', 'pathway', 'thanks']);
  });
});

describe('QuickReplyInput', () => {
  it('normalises the shortcut and refuses bad ones with the field and reason', () => {
    expect(QuickReplyInput.parse({ shortcut: '/Thanks', text: 'Thank you {{contact.name}}' })).toMatchObject({ shortcut: 'thanks', scope: 'team' });
    const bad = QuickReplyInput.safeParse({ shortcut: 'two words', text: '{{nope}}' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.'))).toEqual(['shortcut', 'text']);
  });
});
