/**
 * The rule editor (issue 17 §10): reads like a sentence — "When [a message is received] and
 * [all] of these are true: [the chat labels] [contains] [VIP] …, then [assign the chat] to […]".
 * Pickers are filled from the org's labels and members; the API checks everything again (a 400
 * names the field, shown next to the editor).
 */
import { useState } from 'react';
import { FIELDS, OPERATORS, TRIGGERS, type Action, type Condition, type ConditionGroup, type Conditions, type RuleInput, type Trigger } from '#shared/rules/rule.schemas.ts';
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { PropertyDef } from '#shared/property/property.schemas.ts';
import type { OrgMember } from '../../lib/api.ts';
import { ACTION_LABELS, FIELD_LABELS, OP_LABELS, TRIGGER_LABELS } from './sentence.ts';
import { TemplateActionFields } from './TemplateActionFields.tsx';

export type Draft = Pick<RuleInput, 'name' | 'trigger' | 'conditions' | 'actions' | 'enabled' | 'allow_after_automation'>;

export const emptyDraft = (): Draft => ({ name: '', trigger: { type: 'message.received' }, conditions: { match: 'all', items: [] }, actions: [{ type: 'send_message', body: "Hi {{contact.name | default: 'there'}}, thanks for your message!" }], enabled: true, allow_after_automation: false });

interface Pickers {
  labels: ChatLabel[];
  members: OrgMember[];
  /** the org's custom properties (issue 15), for "set a custom property" */
  properties: PropertyDef[];
}

const ACTION_TYPES = Object.keys(ACTION_LABELS) as Array<Action['type']>;

function newAction(type: Action['type'], p: Pickers): Action {
  const label = p.labels[0]?.label_id ?? '';
  const member = p.members[0]?.email ?? '';
  switch (type) {
    case 'send_message':
      return { type, body: "Hi {{contact.name | default: 'there'}}!" };
    case 'send_template':
      return { type, name: '', language: 'en_US', values: {} };
    case 'assign':
      return { type, mode: 'member', member };
    case 'add_label':
    case 'remove_label':
      return { type, label_id: label };
    case 'snooze':
      return { type, minutes: 60 };
    case 'private_note':
      return { type, body: 'Automated note' };
    case 'create_ticket':
      return { type, subject: 'Follow up {{contact.name}}' };
    case 'create_task':
      return { type, title: 'Call {{contact.name}} back' };
    case 'notify':
      return { type, member, text: 'Have a look at this chat' };
    case 'webhook':
      return { type, url: 'https://' };
    case 'set_property':
      return { type, property_id: p.properties[0]?.property_id ?? '', value: '' };
    case 'follow_up':
      return { type, after_minutes: 24 * 60, body: 'Just checking in — any questions?', repeat: 1, then: 'nothing' };
    default:
      return { type } as Action;
  }
}

const newCondition = (): Condition => ({ field: 'message.body', op: 'contains', value: '' });
const isGroup = (x: Condition | ConditionGroup): x is ConditionGroup => 'match' in x;

export function RuleEditor({ initial, pickers, saving, error, onSave, onCancel }: { initial: Draft; pickers: Pickers; saving: boolean; error: string | null; onSave: (d: Draft) => void; onCancel: () => void }) {
  const [d, setD] = useState<Draft>(initial);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const setItems = (items: Conditions['items']) => set({ conditions: { ...d.conditions, items } });
  const setAction = (i: number, a: Action) => set({ actions: d.actions.map((x, j) => (j === i ? a : x)) });
  return (
    <form
      className="rule-editor"
      data-testid="rule-editor"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(d);
      }}
    >
      <label className="field rule-name">
        <span>Rule name</span>
        <input value={d.name} onChange={(e) => set({ name: e.target.value })} placeholder="Welcome VIP customers" maxLength={100} required data-testid="rule-name" />
      </label>
      <div className="rule-line">
        <span className="rule-word">When</span>
        <select aria-label="Trigger" value={d.trigger.type} onChange={(e) => set({ trigger: { type: e.target.value as Trigger['type'], ...(e.target.value === 'no_reply' ? { minutes: 60 } : {}) } })} data-testid="rule-trigger">
          {TRIGGERS.map((t) => (
            <option key={t} value={t}>
              {TRIGGER_LABELS[t]}
            </option>
          ))}
        </select>
        {d.trigger.type === 'no_reply' && (
          <>
            <span className="rule-word">within</span>
            <input className="rule-num" type="number" min={1} aria-label="Minutes" value={d.trigger.minutes ?? 60} onChange={(e) => set({ trigger: { ...d.trigger, type: 'no_reply', minutes: Number(e.target.value) } })} />
            <select aria-label="Count" value={d.trigger.business_hours ? 'business' : 'calendar'} onChange={(e) => set({ trigger: { ...d.trigger, business_hours: e.target.value === 'business' || undefined } })} data-testid="rule-trigger-clock">
              <option value="calendar">min</option>
              <option value="business">business-hour min</option>
            </select>
          </>
        )}
        {d.trigger.type === 'contact.property_changed' && (
          <select aria-label="Contact property" value={d.trigger.property_id ?? ''} onChange={(e) => set({ trigger: { type: 'contact.property_changed', ...(e.target.value ? { property_id: e.target.value } : {}) } })} data-testid="rule-trigger-property">
            <option value="">any property</option>
            {pickers.properties.map((p) => (
              <option key={p.property_id} value={p.property_id}>
                {p.property_name}
              </option>
            ))}
          </select>
        )}
      </div>
      <div className="rule-line">
        <span className="rule-word">and</span>
        <select aria-label="Match" value={d.conditions.match} onChange={(e) => set({ conditions: { ...d.conditions, match: e.target.value as 'all' | 'any' } })}>
          <option value="all">all</option>
          <option value="any">any</option>
        </select>
        <span className="rule-word">of these are true{d.conditions.items.length ? ':' : ' (no conditions: always)'}</span>
      </div>
      <ul className="rule-conditions">
        {d.conditions.items.map((item, i) => (
          <li key={i}>
            {isGroup(item) ? (
              <div className="rule-group">
                <div className="rule-line">
                  <select aria-label="Group match" value={item.match} onChange={(e) => setItems(d.conditions.items.map((x, j) => (j === i ? { ...item, match: e.target.value as 'all' | 'any' } : x)))}>
                    <option value="all">all</option>
                    <option value="any">any</option>
                  </select>
                  <span className="rule-word">of:</span>
                  <button type="button" className="link-btn" onClick={() => setItems(d.conditions.items.filter((_, j) => j !== i))}>
                    Remove group
                  </button>
                </div>
                {item.items.map((c, k) => (
                  <ConditionRow
                    key={k}
                    c={c}
                    pickers={pickers}
                    onChange={(nc) => setItems(d.conditions.items.map((x, j) => (j === i ? { ...item, items: item.items.map((y, m) => (m === k ? nc : y)) } : x)))}
                    onRemove={() => setItems(d.conditions.items.map((x, j) => (j === i ? { ...item, items: item.items.filter((_, m) => m !== k) } : x)))}
                  />
                ))}
                <button type="button" className="link-btn" onClick={() => setItems(d.conditions.items.map((x, j) => (j === i ? { ...item, items: [...item.items, newCondition()] } : x)))}>
                  + condition in group
                </button>
              </div>
            ) : (
              <ConditionRow c={item} pickers={pickers} onChange={(nc) => setItems(d.conditions.items.map((x, j) => (j === i ? nc : x)))} onRemove={() => setItems(d.conditions.items.filter((_, j) => j !== i))} />
            )}
          </li>
        ))}
      </ul>
      <div className="rule-line">
        <button type="button" className="btn btn-small" onClick={() => setItems([...d.conditions.items, newCondition()])} data-testid="rule-add-condition">
          + Condition
        </button>
        <button type="button" className="btn btn-small" onClick={() => setItems([...d.conditions.items, { match: 'any', items: [newCondition()] }])}>
          + Group
        </button>
      </div>
      <div className="rule-line">
        <span className="rule-word">then</span>
      </div>
      <ol className="rule-actions">
        {d.actions.map((a, i) => (
          <li key={i}>
            <ActionRow a={a} pickers={pickers} index={i} onChange={(na) => setAction(i, na)} onRemove={d.actions.length > 1 ? () => set({ actions: d.actions.filter((_, j) => j !== i) }) : undefined} />
          </li>
        ))}
      </ol>
      <div className="rule-line">
        <button type="button" className="btn btn-small" onClick={() => set({ actions: [...d.actions, newAction('add_label', pickers)] })} disabled={d.actions.length >= 10} data-testid="rule-add-action">
          + Action
        </button>
      </div>
      <p className="muted small">
        Messages, notes, tickets and tasks can use variables: <code>{"{{contact.name | default: 'there'}}"}</code>, <code>{'{{contact.number}}'}</code>, <code>{'{{chat.assignee}}'}</code>, <code>{'{{message.body}}'}</code>.
      </p>
      {error && (
        <p className="rule-error" role="alert" data-testid="rule-error">
          {error}
        </p>
      )}
      <div className="rule-line rule-buttons">
        <label className="rule-toggle">
          <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
        </label>
        <label className="rule-toggle" title="Off: this rule does not answer a message another rule sent automatically with a message of its own (stops loops between rules).">
          <input type="checkbox" checked={d.allow_after_automation === true} onChange={(e) => set({ allow_after_automation: e.target.checked })} data-testid="rule-allow-after-automation" /> May follow another rule’s message
        </label>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving || !d.name.trim()} data-testid="rule-save">
          {saving ? 'Saving…' : 'Save rule'}
        </button>
      </div>
    </form>
  );
}

const BOOL_FIELDS = new Set(['message.from_me', 'chat.closed', 'time.business_hours']);
const PROPERTY = /^(chat\.custom_properties|contact\.properties)\./;

function ConditionRow({ c, pickers, onChange, onRemove }: { c: Condition; pickers: Pickers; onChange: (c: Condition) => void; onRemove: () => void }) {
  const property = PROPERTY.exec(c.field)?.[1];
  const fieldChoice = property ? `${property}.*` : c.field;
  const noValue = c.op === 'is_known' || c.op === 'is_unknown';
  const value = Array.isArray(c.value) ? c.value.join(', ') : String(c.value ?? '');
  const valueInput = () => {
    if (noValue) return null;
    if (c.field.endsWith('.labels') && pickers.labels.length)
      return (
        <select aria-label="Label" value={value} onChange={(e) => onChange({ ...c, value: e.target.value })} data-testid="rule-cond-label">
          <option value="">choose a label</option>
          {pickers.labels.map((l) => (
            <option key={l.label_id} value={l.label_id}>
              {l.name}
            </option>
          ))}
        </select>
      );
    if (c.field.endsWith('assignee'))
      return (
        <select aria-label="Member" value={value} onChange={(e) => onChange({ ...c, value: e.target.value })}>
          <option value="">choose a member</option>
          {pickers.members.map((m) => (
            <option key={m.email} value={m.email}>
              {m.member_name ?? m.email}
            </option>
          ))}
        </select>
      );
    if (BOOL_FIELDS.has(c.field))
      return (
        <select aria-label="Value" value={String(c.value ?? 'true')} onChange={(e) => onChange({ ...c, value: e.target.value === 'true' })}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    return <input aria-label="Value" value={value} placeholder={c.op === 'in' || c.op === 'not_in' ? 'a, b, c' : c.op === 'on' ? 'YYYY-MM-DD' : 'value'} onChange={(e) => onChange({ ...c, value: e.target.value })} data-testid="rule-cond-value" />;
  };
  return (
    <div className="rule-line rule-condition" data-testid="rule-condition">
      <select
        aria-label="Field"
        value={fieldChoice}
        onChange={(e) => {
          const f = e.target.value;
          onChange({ ...c, field: f.endsWith('.*') ? `${f.slice(0, -2)}.key` : f, value: BOOL_FIELDS.has(f) ? true : '' });
        }}
        data-testid="rule-cond-field"
      >
        {FIELDS.map((f) => (
          <option key={f} value={f}>
            {FIELD_LABELS[f]}
          </option>
        ))}
        <option value="chat.custom_properties.*">a chat property…</option>
        <option value="contact.properties.*">a contact property…</option>
      </select>
      {property && <input aria-label="Property" className="rule-prop" value={c.field.slice(property.length + 1)} onChange={(e) => onChange({ ...c, field: `${property}.${e.target.value.replace(/[^A-Za-z0-9_.-]/g, '')}` })} />}
      <select aria-label="Operator" value={c.op} onChange={(e) => onChange({ ...c, op: e.target.value as Condition['op'] })} data-testid="rule-cond-op">
        {OPERATORS.map((o) => (
          <option key={o} value={o}>
            {OP_LABELS[o]}
          </option>
        ))}
      </select>
      {valueInput()}
      <button type="button" className="link-btn" aria-label="Remove condition" onClick={onRemove}>
        Remove
      </button>
    </div>
  );
}

function ActionRow({ a, index, pickers, onChange, onRemove }: { a: Action; index: number; pickers: Pickers; onChange: (a: Action) => void; onRemove?: () => void }) {
  const text = (key: string, label: string, wide = true) => (
    <input aria-label={label} className={wide ? 'rule-text' : undefined} value={String((a as Record<string, unknown>)[key] ?? '')} onChange={(e) => onChange({ ...a, [key]: e.target.value } as Action)} data-testid={`rule-action-${key}-${index}`} />
  );
  const num = (key: string, label: string) => (
    <input aria-label={label} className="rule-num" type="number" min={1} value={Number((a as Record<string, unknown>)[key] ?? 1)} onChange={(e) => onChange({ ...a, [key]: Number(e.target.value) } as Action)} />
  );
  const labelPick = (key: string) => (
    <select aria-label="Label" value={String((a as Record<string, unknown>)[key] ?? '')} onChange={(e) => onChange({ ...a, [key]: e.target.value } as Action)} data-testid={`rule-action-label-${index}`}>
      {!pickers.labels.length && <option value="">no labels yet</option>}
      {pickers.labels.map((l) => (
        <option key={l.label_id} value={l.label_id}>
          {l.name}
        </option>
      ))}
    </select>
  );
  const memberPick = (key: string) => (
    <select aria-label="Member" value={String((a as Record<string, unknown>)[key] ?? '')} onChange={(e) => onChange({ ...a, [key]: e.target.value } as Action)}>
      {pickers.members.map((m) => (
        <option key={m.email} value={m.email}>
          {m.member_name ?? m.email}
        </option>
      ))}
    </select>
  );
  const params = () => {
    switch (a.type) {
      case 'send_message':
      case 'private_note':
        return text('body', 'Text');
      case 'send_template':
        return <TemplateActionFields action={a} index={index} onChange={onChange} />;
      case 'assign':
        return (
          <>
            <select aria-label="Assign mode" value={a.mode} onChange={(e) => onChange({ ...a, mode: e.target.value as 'member', member: e.target.value === 'member' ? (a.member ?? pickers.members[0]?.email) : undefined })}>
              <option value="member">to</option>
              <option value="round_robin">round-robin among online members</option>
              <option value="least_busy">to the least busy member</option>
            </select>
            {a.mode === 'member' && memberPick('member')}
          </>
        );
      case 'add_label':
      case 'remove_label':
        return labelPick('label_id');
      case 'snooze':
        return (
          <>
            <span className="rule-word">for</span>
            {num('minutes', 'Minutes')}
            <span className="rule-word">min</span>
          </>
        );
      case 'create_ticket':
        return text('subject', 'Subject');
      case 'create_task':
        return text('title', 'Title');
      case 'notify':
        return (
          <>
            {memberPick('member')}
            {text('text', 'Text')}
          </>
        );
      case 'webhook':
        return text('url', 'URL');
      case 'set_property':
        return (
          <>
            <select aria-label="Property" value={a.property_id} onChange={(e) => onChange({ ...a, property_id: e.target.value })} data-testid={`rule-action-property-${index}`}>
              {!pickers.properties.length && <option value="">no custom properties yet</option>}
              {pickers.properties.map((p) => (
                <option key={p.property_id} value={p.property_id}>
                  {p.property_name}
                </option>
              ))}
            </select>
            <span className="rule-word">to</span>
            {text('value', 'Value')}
          </>
        );
      case 'follow_up':
        return (
          <>
            <span className="rule-word">after</span>
            {num('after_minutes', 'Minutes without a reply')}
            <select aria-label="Count" value={a.business_hours ? 'business' : 'calendar'} onChange={(e) => onChange({ ...a, business_hours: e.target.value === 'business' || undefined })}>
              <option value="calendar">min</option>
              <option value="business">business-hour min</option>
            </select>
            <span className="rule-word">, send</span>
            {text('body', 'Follow-up text')}
            <span className="rule-word">up to</span>
            {num('repeat', 'Times')}
            <span className="rule-word">×, then</span>
            <select aria-label="Then" value={a.then} onChange={(e) => onChange({ ...a, then: e.target.value as 'nothing', then_label_id: e.target.value === 'label' ? (a.then_label_id ?? pickers.labels[0]?.label_id) : undefined })}>
              <option value="nothing">stop</option>
              <option value="close">close the chat</option>
              <option value="label">label it</option>
            </select>
            {a.then === 'label' && labelPick('then_label_id')}
          </>
        );
      default:
        return null;
    }
  };
  return (
    <div className="rule-line rule-action" data-testid="rule-action">
      <select aria-label="Action" value={a.type} onChange={(e) => onChange(newAction(e.target.value as Action['type'], pickers))} data-testid={`rule-action-type-${index}`}>
        {ACTION_TYPES.map((t) => (
          <option key={t} value={t}>
            {ACTION_LABELS[t]}
          </option>
        ))}
      </select>
      {params()}
      {a.type !== 'follow_up' && (
        <label className="rule-delay">
          <span className="rule-word">after</span>
          <input className="rule-num" type="number" min={0} aria-label="Delay in minutes" value={a.delay_minutes ?? 0} onChange={(e) => onChange({ ...a, delay_minutes: Number(e.target.value) || undefined } as Action)} />
          <select aria-label="Delay clock" value={'business_hours' in a && a.business_hours ? 'business' : 'calendar'} onChange={(e) => onChange({ ...a, business_hours: e.target.value === 'business' || undefined } as Action)} data-testid="rule-action-delay-clock">
            <option value="calendar">min</option>
            <option value="business">business-hour min</option>
          </select>
        </label>
      )}
      {onRemove && (
        <button type="button" className="link-btn" aria-label="Remove action" onClick={onRemove}>
          Remove
        </button>
      )}
    </div>
  );
}
