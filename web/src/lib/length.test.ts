import { describe, expect, it } from 'vitest';
import { boundedLength, lengthProblem } from './length.ts';

describe('bounded text fields refuse, never cut', () => {
  it('fits at the limit, refuses one over with the field and the limit', () => {
    expect(lengthProblem('a'.repeat(150), 150, 'Title')).toBeNull();
    expect(lengthProblem('a'.repeat(151), 150, 'Title')).toBe('Title must be at most 150 characters');
  });

  it('counts as the API does: trimmed, UTF-16 units', () => {
    expect(boundedLength(`  ${'x'.repeat(50)}  `)).toBe(50);
    expect(lengthProblem(`  ${'x'.repeat(50)}  `, 50, 'Name')).toBeNull();
    expect(boundedLength('😀')).toBe(2);
  });
});
