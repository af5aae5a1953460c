/**
 * Inputs for custom property values (spec §3; issue 15): text, number, date (native inputs) and
 * dropdown (a select of the definition's options). Used by the contact panel and, lazily, by the
 * chat details panel. `values` maps property_id -> stored text; '' clears.
 */
import { useQuery } from '@tanstack/react-query';
import type { PropertyDef } from '#shared/property/property.schemas.ts';
import { propertiesApi, propertyKeys } from '../api/properties.ts';

const NO_DEFS: PropertyDef[] = [];

/** The org's definitions (cached per org). */
export function usePropertyDefs(orgId: string): PropertyDef[] {
  const { data } = useQuery({ queryKey: propertyKeys.all(orgId), queryFn: () => propertiesApi.list(orgId), staleTime: 60_000 });
  return data ?? NO_DEFS;
}

export function PropertyFields({ defs, values, onChange, disabled = false }: { defs: PropertyDef[]; values: Record<string, string>; onChange: (v: Record<string, string>) => void; disabled?: boolean }) {
  if (!defs.length) return null;
  const set = (id: string, v: string) => {
    const next = { ...values };
    if (v) next[id] = v;
    else delete next[id];
    onChange(next);
  };
  return (
    <fieldset className="property-fields" data-testid="property-fields">
      <legend>Properties</legend>
      {defs.map((d) => {
        const v = values[d.property_id] ?? '';
        return (
          <label key={d.property_id} className="field">
            <span>{d.property_name}</span>
            {d.property_value_type === 'dropdown' ? (
              <select value={v} disabled={disabled} onChange={(e) => set(d.property_id, e.target.value)} data-testid={`property-${d.property_id}`}>
                <option value="">—</option>
                {Object.entries(d.property_value).map(([id, label]) => (
                  <option key={id} value={id}>
                    {label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                type={d.property_value_type === 'number' ? 'number' : d.property_value_type === 'date' ? 'date' : 'text'}
                step={d.property_value_type === 'number' ? 'any' : undefined}
                maxLength={500}
                value={v}
                disabled={disabled}
                onChange={(e) => set(d.property_id, e.target.value)}
                data-testid={`property-${d.property_id}`}
              />
            )}
          </label>
        );
      })}
    </fieldset>
  );
}
