import { describe, expect, it } from 'vitest';
import { activeMentionQuery, filterMentionMembers, insertMention, mentionLabel, mentionTitle, mentionsInBody, noteExcerpt, noteSegments, NOTE_EXCERPT_CHARS } from './private-note.rules.ts';

/** Private notes and @mentions (issue 4): notification text, the composer's picker, highlighting. */
const members = [
  { email: 'grace@x.com', member_name: 'Grace Hopper' },
  { email: 'alan@x.com', member_name: 'Alan Turing' },
  { email: 'ada@x.com', member_name: null },
  { email: 'hop@x.com', member_name: '  ' },
];

describe('mention notification text', () => {
  it('titles with the author’s name and cuts the body to 120 characters with an ellipsis', () => {
    expect(mentionTitle('Grace Hopper')).toBe('Grace Hopper mentioned you');
    expect(noteExcerpt('  short\n\nnote  ')).toBe('short note');
    const long = 'x'.repeat(200);
    expect(noteExcerpt(long)).toHaveLength(NOTE_EXCERPT_CHARS);
    expect(noteExcerpt(long).endsWith('…')).toBe(true);
    expect(noteExcerpt('y'.repeat(120))).toBe('y'.repeat(120));
  });

  it('labels a member by name, else by email', () => {
    expect(members.map(mentionLabel)).toEqual(['Grace Hopper', 'Alan Turing', 'ada@x.com', 'hop@x.com']);
  });
});

describe('the @ picker', () => {
  it('opens on an @ at the start or after a space, up to the caret', () => {
    expect(activeMentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(activeMentionQuery('ask @gra', 8)).toEqual({ start: 4, query: 'gra' });
    expect(activeMentionQuery('ask @grace ho', 13)).toEqual({ start: 4, query: 'grace ho' });
    expect(activeMentionQuery('ask @gra and more', 8)).toEqual({ start: 4, query: 'gra' });
  });

  it('stays closed inside an email address, after a line break, a leading or trailing space or a long run', () => {
    expect(activeMentionQuery('mail bob@x.com', 14)).toBeNull();
    expect(activeMentionQuery('@gra\nce', 7)).toBeNull();
    expect(activeMentionQuery('@ grace', 7)).toBeNull();
    expect(activeMentionQuery('hi @Grace Hopper ', 17)).toBeNull();
    expect(activeMentionQuery(`@${'a'.repeat(41)}`, 42)).toBeNull();
    expect(activeMentionQuery('no mention', 10)).toBeNull();
  });

  it('filters by name or email, prefix matches first', () => {
    expect(filterMentionMembers(members, '').map((m) => m.email)).toEqual(members.map((m) => m.email));
    expect(filterMentionMembers(members, 'hop').map((m) => m.email)).toEqual(['hop@x.com', 'grace@x.com']);
    expect(filterMentionMembers(members, 'ALAN').map((m) => m.email)).toEqual(['alan@x.com']);
    expect(filterMentionMembers(members, 'zzz')).toEqual([]);
  });

  it('inserts @label and a space in place of the typed query', () => {
    expect(insertMention('ask @gra please', 4, 8, 'Grace Hopper')).toEqual({ text: 'ask @Grace Hopper  please', caret: 18 });
    expect(insertMention('@', 0, 1, 'ada@x.com')).toEqual({ text: '@ada@x.com ', caret: 11 });
  });
});

describe('mentions kept and highlighted', () => {
  const grace = { email: 'grace@x.com', name: 'Grace Hopper' };
  const alan = { email: 'alan@x.com', name: 'Alan Turing' };

  it('keeps picked mentions still written in the text, once each', () => {
    expect(mentionsInBody('@Grace Hopper look', [grace, alan, grace])).toEqual([grace]);
    expect(mentionsInBody('nobody', [grace])).toEqual([]);
  });

  it('cuts the text into plain runs and mentions', () => {
    expect(noteSegments('Hi @Grace Hopper and @Alan Turing!', [grace, alan])).toEqual([
      { text: 'Hi ' },
      { text: '@Grace Hopper', mention: 'grace@x.com' },
      { text: ' and ' },
      { text: '@Alan Turing', mention: 'alan@x.com' },
      { text: '!' },
    ]);
    expect(noteSegments('mail @someone', [grace])).toEqual([{ text: 'mail @someone' }]);
    expect(noteSegments('plain', null)).toEqual([{ text: 'plain' }]);
  });

  it('prefers the longer label when one is the start of another', () => {
    const gr = { email: 'g@x.com', name: 'Grace' };
    expect(noteSegments('@Grace Hopper', [gr, grace])).toEqual([{ text: '@Grace Hopper', mention: 'grace@x.com' }]);
  });
});
