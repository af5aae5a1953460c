import { describe, expect, it } from 'vitest';
import { TypingThrottle, typerName, typingText } from './typing.rules.ts';

describe('typingText', () => {
  it('is null when nobody types', () => {
    expect(typingText([])).toBeNull();
  });

  it('names one typer', () => {
    expect(typingText([{ email: 'alan@x.io', member_name: 'Alan', at: 1 }])).toBe('Alan is typing...');
  });

  it('names the most recent typer and counts the others', () => {
    const typers = [
      { email: 'b@x.io', member_name: 'Bea', at: 10 },
      { email: 'alan@x.io', member_name: 'Alan', at: 30 },
      { email: 'c@x.io', member_name: null, at: 20 },
    ];
    expect(typingText(typers)).toBe('Alan + 2 are typing...');
  });

  it('falls back to the local part of the email', () => {
    expect(typerName({ email: 'grace.h@x.io', member_name: '  ' })).toBe('grace.h');
    expect(typingText([{ email: 'grace.h@x.io', at: 1 }])).toBe('grace.h is typing...');
  });
});

describe('TypingThrottle', () => {
  it('lets one start through per window and key', () => {
    const t = new TypingThrottle(2_000);
    expect(t.allow('c1:chat', 1_000)).toBe(true);
    expect(t.allow('c1:chat', 2_999)).toBe(false);
    expect(t.allow('c2:chat', 2_999)).toBe(true);
    expect(t.allow('c1:chat', 3_000)).toBe(true);
  });

  it('lets the next start through at once after a reset (stop)', () => {
    const t = new TypingThrottle(2_000);
    expect(t.allow('k', 0)).toBe(true);
    t.reset('k');
    expect(t.allow('k', 10)).toBe(true);
  });

  it('forgets the oldest keys past its bound', () => {
    const t = new TypingThrottle(2_000, 2);
    t.allow('a', 0);
    t.allow('b', 0);
    t.allow('c', 0);
    expect(t.size).toBe(2);
    // 'a' was evicted, so it is let through again; 'c' is still remembered
    expect(t.allow('a', 1)).toBe(true);
    expect(t.allow('c', 1)).toBe(false);
  });
});
