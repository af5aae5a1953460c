/**
 * The chat-list filter by custom property value (issue 15 item 4), used in the /chats filter bar
 * and on /list: a "Property" select of the org's definitions, then the value — the options of a
 * dropdown property, else a text / number / date box applied on Enter or when it loses focus. The
 * filter is set (property_id + property_value, as GET /chats takes them) only once both are chosen.
 * Definitions come from GET /properties under the same query key the settings page and the details
 * panel use (['orgs', orgId, 'properties']), fetched here so the /chats bundle does not take the
 * contacts feature.
 */
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PropertyDef } from '#shared/property/property.schemas.ts';
import { apiRequest } from '../../../lib/api.ts';

const NO_DEFS: PropertyDef[] = [];

/** The org's custom property definitions (shared cache entry with /settings/properties). */
export function usePropertyDefinitions(orgId: string): PropertyDef[] {
  const { data } = useQuery({
    queryKey: ['orgs', orgId, 'properties'] as const,
    queryFn: () => apiRequest<{ properties: PropertyDef[] }>('GET', `/api/orgs/${encodeURIComponent(orgId)}/properties`).then((r) => r.properties),
    staleTime: 60_000,
  });
  return data ?? NO_DEFS;
}

export interface PropertyFilterProps {
  orgId: string;
  propertyId: string | undefined;
  value: string | undefined;
  /** both set, or both undefined (filter removed) */
  onChange: (propertyId: string | undefined, value: string | undefined) => void;
  /** the look of the controls: the /chats chips or the /list selects */
  variant: 'chip' | 'list';
  /** test id prefix */
  testId: string;
}

export function PropertyFilter({ orgId, propertyId, value, onChange, variant, testId }: PropertyFilterProps) {
  const defs = usePropertyDefinitions(orgId);
  // the property picked before its value (the filter itself needs both)
  const [pending, setPending] = useState<string | undefined>(propertyId);
  const [text, setText] = useState(value ?? '');
  // our own clear (another property picked, no value yet) keeps the pick; a clear from outside (Clear, a URL) drops it
  const selfCleared = useRef(false);
  useEffect(() => {
    if (propertyId) setPending(propertyId);
    else if (!selfCleared.current) setPending(undefined);
    selfCleared.current = false;
  }, [propertyId]);
  useEffect(() => setText(value ?? ''), [value]);
  if (!defs.length && !propertyId) return null;
  const chosen = pending ?? propertyId;
  const def = defs.find((d) => d.property_id === chosen);
  const on = !!propertyId && !!value;
  const pickProperty = (id: string) => {
    setPending(id || undefined);
    setText('');
    if (propertyId && (!id || id !== propertyId)) {
      selfCleared.current = !!id;
      onChange(undefined, undefined);
    }
  };
  const applyText = () => {
    const v = text.trim();
    if (!chosen) return;
    if (v === (value ?? '')) return;
    onChange(v ? chosen : undefined, v || undefined);
  };
  const selectClass = variant === 'list' ? 'list-select' : undefined;
  const wrap = (child: React.ReactNode, key: string) =>
    variant === 'chip' ? (
      <label key={key} className={`filter-chip select-chip ${on ? 'on' : ''}`}>
        {child}
      </label>
    ) : (
      <span key={key}>{child}</span>
    );
  const propertySelect = (
    <select className={selectClass} value={chosen ?? ''} onChange={(e) => pickProperty(e.target.value)} data-testid={`${testId}-property`} aria-label="Property">
      <option value="">{variant === 'list' ? 'Any property' : 'Property'}</option>
      {defs.map((d) => (
        <option key={d.property_id} value={d.property_id}>
          {d.property_name}
        </option>
      ))}
      {chosen && !def && <option value={chosen}>Deleted property</option>}
    </select>
  );
  let valueControl: React.ReactNode = null;
  if (chosen && def?.property_value_type === 'dropdown') {
    valueControl = (
      <select className={selectClass} value={value ?? ''} onChange={(e) => onChange(e.target.value ? chosen : undefined, e.target.value || undefined)} data-testid={`${testId}-value`} aria-label={`${def.property_name} value`}>
        <option value="">Any {def.property_name}</option>
        {Object.entries(def.property_value).map(([id, label]) => (
          <option key={id} value={id}>
            {label}
          </option>
        ))}
      </select>
    );
  } else if (chosen) {
    const type = def?.property_value_type === 'number' ? 'number' : def?.property_value_type === 'date' ? 'date' : 'text';
    valueControl = (
      <input
        className={variant === 'list' ? 'list-select property-filter-input' : 'property-filter-input'}
        type={type}
        value={text}
        placeholder={def ? `${def.property_name} is…` : 'Value'}
        aria-label={`${def?.property_name ?? 'Property'} value`}
        data-testid={`${testId}-value`}
        onChange={(e) => setText(e.target.value)}
        onBlur={applyText}
        onKeyDown={(e) => {
          if (e.key === 'Enter') applyText();
          if (e.key === 'Escape') setText(value ?? '');
        }}
      />
    );
  }
  return (
    <>
      {wrap(propertySelect, 'p')}
      {valueControl && wrap(valueControl, 'v')}
    </>
  );
}
