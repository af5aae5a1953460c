import { describe, expect, it } from 'vitest';
import { optionMap, propertyLinksOf, propertyValueKey, unknownOptionId, valueLabel, valueProblem } from './property.rules.ts';
import { PropertyInput } from './property.schemas.ts';

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
  it('relabels an option by its id: the id (what values store) stays, even when labels swap', () => {
    let n = 0;
    const make = () => `new_${++n}`;
    expect(optionMap(dd.property_value, [{ option_id: 'opt_a', label: 'Platinum' }, 'Silver'], make)).toEqual({ opt_a: 'Platinum', opt_b: 'Silver' });
    // swapped labels: ids win over labels; a bare label an id already claimed is a new option
    expect(optionMap(dd.property_value, [{ option_id: 'opt_a', label: 'Silver' }, { option_id: 'opt_b', label: 'Gold' }], make)).toEqual({ opt_a: 'Silver', opt_b: 'Gold' });
    expect(optionMap(dd.property_value, [{ option_id: 'opt_b', label: 'Gold' }, 'Silver'], make)).toEqual({ opt_b: 'Gold', new_1: 'Silver' });
    // an object without id behaves as a label
    expect(optionMap(dd.property_value, [{ label: 'gold' }], make)).toEqual({ opt_a: 'gold' });
    expect(unknownOptionId(dd.property_value, ['x', { option_id: 'opt_a', label: 'A' }, { option_id: 'opt_zz', label: 'B' }])).toEqual({ field: 'options.2.option_id', reason: 'is not an option of this property' });
    expect(unknownOptionId(dd.property_value, ['x', { option_id: 'opt_b', label: 'B' }])).toBeNull();
  });
  it('input: options as labels or { option_id, label }, no repeated labels or ids', () => {
    const base = { property_name: 'Tier', property_value_type: 'dropdown' as const };
    expect(PropertyInput.safeParse({ ...base, options: ['Gold', { option_id: 'opt_b', label: ' Silver ' }] }).data?.options).toEqual(['Gold', { option_id: 'opt_b', label: 'Silver' }]);
    const issues = (v: unknown) => (PropertyInput.safeParse(v).error?.issues ?? []).map((i) => `${i.path.join('.')} ${i.message}`);
    expect(issues({ ...base, options: ['Gold', { label: 'gold' }] })).toEqual(['options must not repeat an option']);
    expect(issues({ ...base, options: [{ option_id: 'a', label: 'x' }, { option_id: 'a', label: 'y' }] })).toEqual(['options must not repeat an option id']);
    expect(issues({ ...base, options: [{ option_id: 'a' }] })).toEqual(['options.0 must be a label or { option_id, label }']);
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
