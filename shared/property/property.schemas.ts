import { z } from 'zod';

/** Wire shapes of custom properties (spec §3; issue 15). Browser-safe. */
export const PROPERTY_TYPES = ['text', 'dropdown', 'number', 'date'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const PropertyDef = z.object({
  property_id: z.string(),
  property_name: z.string(),
  property_value_type: z.enum(PROPERTY_TYPES),
  /** dropdown: option id -> label (empty for other types) */
  property_value: z.record(z.string()),
});
export type PropertyDef = z.infer<typeof PropertyDef>;

const optionLabel = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/**
 * One dropdown option of PropertyInput: a label, or `{ option_id, label }` to relabel an existing
 * option by its id (stored values hold option ids, so a relabel keeps every value; issue 15).
 */
export const OptionInput = z.union([optionLabel, z.object({ option_id: z.string().trim().min(1, 'must not be empty').max(100, 'is too long').optional(), label: optionLabel }).strict()], {
  errorMap: (issue, ctx) => (issue.code === 'invalid_union' ? { message: 'must be a label or { option_id, label }' } : { message: ctx.defaultError }),
});
export type OptionInput = z.infer<typeof OptionInput>;
/** The label of an option of PropertyInput. */
export const optionLabelOf = (o: OptionInput): string => (typeof o === 'string' ? o : o.label);

/**
 * POST /properties and PATCH /properties/{id}. Dropdown `options`: labels, or `{ option_id, label }`
 * (PATCH: an existing option id keeps that option, whatever its new label; a bare label keeps the id
 * of the existing option with that label, else it is a new option). Options left out are removed.
 */
export const PropertyInput = z
  .object({
    property_name: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    property_value_type: z.enum(PROPERTY_TYPES, { errorMap: () => ({ message: `must be one of ${PROPERTY_TYPES.join(', ')}` }) }),
    options: z.array(OptionInput).max(100, 'must have at most 100 options').optional(),
  })
  .refine((v) => v.property_value_type !== 'dropdown' || (v.options?.length ?? 0) > 0, { message: 'a dropdown needs at least one option', path: ['options'] })
  .refine((v) => new Set((v.options ?? []).map((o) => optionLabelOf(o).toLowerCase())).size === (v.options ?? []).length, { message: 'must not repeat an option', path: ['options'] })
  .refine(
    (v) => {
      const ids = (v.options ?? []).flatMap((o) => (typeof o === 'string' || !o.option_id ? [] : [o.option_id]));
      return new Set(ids).size === ids.length;
    },
    { message: 'must not repeat an option id', path: ['options'] },
  );
export type PropertyInput = z.infer<typeof PropertyInput>;

/** PUT /chats/{chat_id}/properties: values to set ('' clears one). */
export const SetPropertiesInput = z.object({
  custom_properties: z.record(z.string().max(100), z.string().max(500, 'must be at most 500 characters')).refine((r) => Object.keys(r).length <= 50, { message: 'must have at most 50 properties' }),
});
export type SetPropertiesInput = z.infer<typeof SetPropertiesInput>;
