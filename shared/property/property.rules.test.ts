import { describe, expect, it } from 'vitest';
import { optionMap, propertyLinksOf, propertyValueKey, valueLabel, valueProblem } from './property.rules.ts';

const dd = { property_value_type: 'dropdown' as const, property_value: { opt_a: 'Gold', opt_b: 'Silver' } };
describe('custom property values', () => {
  it('checks values against the type', () => {
    expect(valueProblem({ property_value_type: 'number', property_value: {} }, '12.5')).toBeNull();
    expect(valueProblem({ property_value_type: 'number', property_value: {} }, '12a')).toBe('must be a number');
    expect(valueProblem({ property_value_type: 'date', property_value: {} }, '2026-02-28')).toBeNull();
    expect(valueProblem({ property_value_type: 'date', property_value: {} }, '2026-02-30')).toBe('must be a real date');
    expect(valueProblem({ property_value_type: 'date', property_value: {} }, '28/02/2026')).toBe('must be a date (YYYY-MM-DD)');
    expect(valueProblem(dd, 'opt_a')).toBeNull();
    expect(valueProblem(dd, 'Gold')).toBe('must be one of the dropdown’s options');
    expect(valueProblem(dd, '')).toBeNull();
    expect(valueProblem(undefined, 'x')).toBe('is not a property of this workspace');
  });
  it('keeps option ids of labels that stay, so stored values stay valid', () => {
    let n = 0;
    expect(optionMap(dd.property_value, ['silver', 'Bronze'], () => `new_${++n}`)).toEqual({ opt_b: 'silver', new_1: 'Bronze' });
    expect(valueLabel(dd, 'opt_b')).toBe('Silver');
    expect(valueLabel({ property_value_type: 'text', property_value: {} }, 'x')).toBe('x');
  });
});

describe('property link keys (chat-list filter)', () => {
  it('files each set value under its trimmed, lower-cased key; empty values and non-maps give none', () => {
    expect(propertyValueKey('  Pune ')).toBe('pune');
    expect(propertyValueKey(12)).toBe('12');
    expect(propertyValueKey(null)).toBe('');
    expect(propertyLinksOf({ prp_b: 'Gold', prp_a: ' x ', prp_c: '  ', prp_d: null })).toEqual([
      { property_id: 'prp_a', value_key: 'x' },
      { property_id: 'prp_b', value_key: 'gold' },
    ]);
    expect(propertyLinksOf(undefined)).toEqual([]);
    expect(propertyLinksOf('text')).toEqual([]);
  });
});
