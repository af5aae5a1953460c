/**
 * The SLA tab of /rules (issue 17 §6): the org's SLA policies (first response, next response and
 * resolution targets, per label and/or number, in business hours or calendar time; near-breach
 * and breach actions: notify, label, reassign, create a ticket) with a compact editor, and the
 * breach report (GET /logs/sla) in the shared PagedLog table.
 */
import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorMessage, fieldErrors } from '../../lib/api.ts';
import { useMembers } from '../../lib/members.ts';
import { chatIdLabel } from '../../lib/format.ts';
import { useToast } from '../../app/toast.tsx';
import { PagedLog, type LogColumn } from '../../components/ui/PagedLog.tsx';
import { SLA_TARGETS, type SlaTarget } from '#shared/sla/sla.schemas.ts';
import { SLA_TARGET_LABEL } from '#shared/sla/sla.rules.ts';
import type { Action } from '#shared/rules/rule.schemas.ts';
import { slaApi, slaKeys, type SlaBreach, type SlaPolicy, type SlaPolicyInput } from './api.ts';
import { pausedText } from './sentence.ts';

type Labels = Array<{ label_id: string; name: string }>;

/** The editor's state: one action of each kind at most per step (what the issue names). */
interface SlaDraft {
  name: string;
  enabled: boolean;
  label_ids: string[];
  phone_ids: string[];
  first: string;
  next: string;
  resolution: string;
  business_hours: boolean;
  near_percent: string;
  near_notify: string;
  breach_notify: string;
  breach_label: string;
  breach_assign: string;
  breach_ticket: boolean;
}

const emptyDraft = (): SlaDraft => ({ name: '', enabled: true, label_ids: [], phone_ids: [], first: '30', next: '', resolution: '', business_hours: true, near_percent: '80', near_notify: '', breach_notify: '', breach_label: '', breach_assign: '', breach_ticket: false });

function draftOf(p: SlaPolicy): SlaDraft {
  const find = <T extends Action['type']>(list: Action[], t: T) => list.find((a) => a.type === t) as Extract<Action, { type: T }> | undefined;
  return {
    name: p.name,
    enabled: p.enabled,
    label_ids: p.scope.label_ids,
    phone_ids: p.scope.phone_ids,
    first: p.targets.first_response_minutes ? String(p.targets.first_response_minutes) : '',
    next: p.targets.next_response_minutes ? String(p.targets.next_response_minutes) : '',
    resolution: p.targets.resolution_minutes ? String(p.targets.resolution_minutes) : '',
    business_hours: p.business_hours,
    near_percent: p.near_breach_percent ? String(p.near_breach_percent) : '',
    near_notify: find(p.near_breach_actions, 'notify')?.member ?? '',
    breach_notify: find(p.breach_actions, 'notify')?.member ?? '',
    breach_label: find(p.breach_actions, 'add_label')?.label_id ?? '',
    breach_assign: find(p.breach_actions, 'assign')?.member ?? '',
    breach_ticket: !!find(p.breach_actions, 'create_ticket'),
  };
}

const num = (s: string) => (s.trim() ? Number(s) : undefined);

function inputOf(d: SlaDraft): SlaPolicyInput {
  const notify = (member: string, text: string): Action[] => (member ? [{ type: 'notify', member, text }] : []);
  return {
    name: d.name,
    enabled: d.enabled,
    scope: { label_ids: d.label_ids, phone_ids: d.phone_ids },
    targets: { first_response_minutes: num(d.first), next_response_minutes: num(d.next), resolution_minutes: num(d.resolution) },
    business_hours: d.business_hours,
    near_breach_percent: num(d.near_percent) ?? null,
    near_breach_actions: notify(d.near_notify, '{{sla.target}} for {{contact.name | default: "a customer"}} is due at {{sla.due_at}}'),
    breach_actions: [
      ...notify(d.breach_notify, '{{sla.target}} breached for {{contact.name | default: "a customer"}}'),
      ...(d.breach_label ? [{ type: 'add_label' as const, label_id: d.breach_label }] : []),
      ...(d.breach_assign ? [{ type: 'assign' as const, mode: 'member' as const, member: d.breach_assign }] : []),
      ...(d.breach_ticket ? [{ type: 'create_ticket' as const, subject: 'SLA breached: {{sla.target}}' }] : []),
    ],
  };
}

/** A policy in words. */
export function slaSentence(p: SlaPolicy, labelName: (id: string) => string): string {
  const t = p.targets;
  const parts = [
    t.first_response_minutes ? `first response within ${t.first_response_minutes} min` : null,
    t.next_response_minutes ? `next response within ${t.next_response_minutes} min` : null,
    t.resolution_minutes ? `resolution within ${t.resolution_minutes} min` : null,
  ].filter(Boolean);
  const scope = p.scope.label_ids.length ? `chats labelled ${p.scope.label_ids.map(labelName).join(' or ')}` : 'every chat';
  const numbers = p.scope.phone_ids.length ? ` on ${p.scope.phone_ids.length} number${p.scope.phone_ids.length > 1 ? 's' : ''}` : '';
  return `For ${scope}${numbers}: ${parts.join(', ')} (${p.business_hours ? 'business' : 'calendar'} minutes)${p.near_breach_percent ? `, warn at ${p.near_breach_percent} %` : ''}; on breach ${p.breach_actions.length ? p.breach_actions.map((a) => a.type.replace('_', ' ')).join(', ') : 'report only'}.`;
}

export function SlaTab({ orgId, labels, labelName }: { orgId: string; labels: Labels; labelName: (id: string) => string }) {
  const qc = useQueryClient();
  const toast = useToast();
  const members = useMembers(orgId);
  const phones = useQuery({ queryKey: ['orgs', orgId, 'rules', 'sla', 'phones'], queryFn: () => api.phones(orgId) });
  const q = useQuery({ queryKey: slaKeys.policies(orgId), queryFn: () => slaApi.list(orgId) });
  const [editing, setEditing] = useState<SlaPolicy | 'new' | null>(null);
  const [draft, setDraft] = useState<SlaDraft>(emptyDraft);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['orgs', orgId, 'rules', 'sla'] });
  const save = useMutation({
    mutationFn: (d: SlaDraft) => (editing && editing !== 'new' ? slaApi.update(orgId, editing.policy_id, inputOf(d)) : slaApi.create(orgId, inputOf(d))),
    onSuccess: () => {
      toast.show(editing === 'new' ? 'SLA policy created' : 'SLA policy saved', 'success');
      setEditing(null);
      refresh();
    },
    onError: (e) => {
      const f = fieldErrors(e);
      setError(f.length ? f.map((x) => `${x.field}: ${x.reason}`).join('; ') : errorMessage(e));
    },
  });
  const toggle = useMutation({ mutationFn: (p: SlaPolicy) => slaApi.update(orgId, p.policy_id, { enabled: !p.enabled }), onSuccess: refresh, onError: (e) => toast.show(errorMessage(e), 'error') });
  const remove = (p: SlaPolicy) => {
    if (!window.confirm(`Delete the SLA policy “${p.name}”? Its breaches stay in the report for 90 days.`)) return;
    slaApi.remove(orgId, p.policy_id).then(refresh, (e: unknown) => toast.show(errorMessage(e), 'error'));
  };
  const open = (p: SlaPolicy | 'new') => {
    setError(null);
    setDraft(p === 'new' ? emptyDraft() : draftOf(p));
    setEditing(p);
  };
  const set = <K extends keyof SlaDraft>(k: K, v: SlaDraft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const toggleIn = (k: 'label_ids' | 'phone_ids', id: string) => setDraft((d) => ({ ...d, [k]: d[k].includes(id) ? d[k].filter((x) => x !== id) : [...d[k], id] }));
  const memberSelect = (label: string, value: string, on: (v: string) => void, testId: string) => (
    <label className="sla-field">
      <span>{label}</span>
      <select value={value} onChange={(e) => on(e.target.value)} data-testid={testId}>
        <option value="">—</option>
        {members.map((m) => (
          <option key={m.email} value={m.email}>
            {m.member_name || m.email}
          </option>
        ))}
      </select>
    </label>
  );
  const policies = q.data ?? [];
  return (
    <section className="rules-section" data-testid="sla-tab">
      <div className="rules-toolbar">
        <p className="muted">SLA policies time the first response, the next response and the resolution of a conversation. The chat list and the thread show each chat’s status.</p>
        {!editing && (
          <button type="button" className="btn btn-primary" onClick={() => open('new')} data-testid="sla-new">
            New SLA policy
          </button>
        )}
      </div>
      {editing && (
        <form
          className="rule-editor sla-editor"
          data-testid="sla-editor"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(draft);
          }}
        >
          <label className="sla-field">
            <span>Name</span>
            <input value={draft.name} onChange={(e) => set('name', e.target.value)} required maxLength={100} data-testid="sla-name" />
          </label>
          <fieldset className="sla-group">
            <legend>Applies to (none ticked: every chat)</legend>
            {labels.map((l) => (
              <label key={l.label_id} className="sla-check">
                <input type="checkbox" checked={draft.label_ids.includes(l.label_id)} onChange={() => toggleIn('label_ids', l.label_id)} /> {l.name}
              </label>
            ))}
            {(phones.data?.phones ?? []).map((p) => (
              <label key={p.phone_id} className="sla-check">
                <input type="checkbox" checked={draft.phone_ids.includes(p.phone_id)} onChange={() => toggleIn('phone_ids', p.phone_id)} /> {p.verified_name || p.org_phone}
              </label>
            ))}
          </fieldset>
          <fieldset className="sla-group">
            <legend>Targets (minutes)</legend>
            <label className="sla-field">
              <span>First response</span>
              <input type="number" min={1} value={draft.first} onChange={(e) => set('first', e.target.value)} data-testid="sla-first" />
            </label>
            <label className="sla-field">
              <span>Next response</span>
              <input type="number" min={1} value={draft.next} onChange={(e) => set('next', e.target.value)} data-testid="sla-next" />
            </label>
            <label className="sla-field">
              <span>Resolution</span>
              <input type="number" min={1} value={draft.resolution} onChange={(e) => set('resolution', e.target.value)} data-testid="sla-resolution" />
            </label>
            <label className="sla-check">
              <input type="checkbox" checked={draft.business_hours} onChange={(e) => set('business_hours', e.target.checked)} /> Count business hours only
            </label>
          </fieldset>
          <fieldset className="sla-group">
            <legend>Near breach</legend>
            <label className="sla-field">
              <span>Warn at (% of the target)</span>
              <input type="number" min={10} max={99} value={draft.near_percent} onChange={(e) => set('near_percent', e.target.value)} />
            </label>
            {memberSelect('Notify', draft.near_notify, (v) => set('near_notify', v), 'sla-near-notify')}
          </fieldset>
          <fieldset className="sla-group">
            <legend>On breach</legend>
            {memberSelect('Notify', draft.breach_notify, (v) => set('breach_notify', v), 'sla-breach-notify')}
            <label className="sla-field">
              <span>Add label</span>
              <select value={draft.breach_label} onChange={(e) => set('breach_label', e.target.value)} data-testid="sla-breach-label">
                <option value="">—</option>
                {labels.map((l) => (
                  <option key={l.label_id} value={l.label_id}>
                    {l.name}
                  </option>
                ))}
              </select>
            </label>
            {memberSelect('Reassign to', draft.breach_assign, (v) => set('breach_assign', v), 'sla-breach-assign')}
            <label className="sla-check">
              <input type="checkbox" checked={draft.breach_ticket} onChange={(e) => set('breach_ticket', e.target.checked)} /> Create a ticket
            </label>
          </fieldset>
          {error && (
            <p role="alert" className="rule-error">
              {error}
            </p>
          )}
          <div className="rule-line">
            <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="sla-save">
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="btn" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {q.isPending && <p className="muted">Loading SLA policies…</p>}
      {q.isError && <p role="alert">Could not load the SLA policies: {errorMessage(q.error)}</p>}
      {q.isSuccess && !policies.length && !editing && <p className="muted">No SLA policy yet.</p>}
      <ul className="rules-list">
        {policies.map((p) => (
          <li key={p.policy_id} className="rule-card" data-testid="sla-card">
            <div className="rule-card-head">
              <label className="rule-switch">
                <input type="checkbox" role="switch" checked={p.enabled} onChange={() => toggle.mutate(p)} aria-label={`${p.enabled ? 'Disable' : 'Enable'} ${p.name}`} />
                <span>{p.enabled ? 'On' : 'Off'}</span>
              </label>
              <div className="rule-card-title">
                <strong>{p.name}</strong>
              </div>
              <div className="rule-card-buttons">
                <button type="button" className="btn btn-small" onClick={() => open(p)}>
                  Edit
                </button>
                <button type="button" className="btn btn-small btn-danger" onClick={() => remove(p)}>
                  Delete
                </button>
              </div>
            </div>
            <p className="rule-sentence">{slaSentence(p, labelName)}</p>
            {p.paused_reason && (
              <p className="rule-paused" role="status" data-testid="sla-paused">
                {pausedText(p)}
              </p>
            )}
          </li>
        ))}
      </ul>
      <SlaBreaches orgId={orgId} />
    </section>
  );
}

function SlaBreaches({ orgId }: { orgId: string }) {
  const [target, setTarget] = useState<SlaTarget | ''>('');
  const q = useInfiniteQuery({
    queryKey: slaKeys.breaches(orgId, target),
    queryFn: ({ pageParam }) => slaApi.breaches(orgId, target, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
  const rows = q.data?.pages.flatMap((p) => p.breaches) ?? [];
  const columns: Array<LogColumn<SlaBreach>> = [
    { header: 'Due', cell: (b) => new Date(b.due_at).toLocaleString(), nowrap: true },
    { header: 'Target', cell: (b) => SLA_TARGET_LABEL[b.target] },
    { header: 'Policy', cell: (b) => b.policy_name },
    { header: 'Chat', cell: (b) => b.chat_name ?? chatIdLabel(b.chat_id) },
    { header: 'Assignee', cell: (b) => b.assignee ?? '—' },
    { header: 'Late by', cell: (b) => `${Math.max(0, Math.round((b.breached_at - b.due_at) / 60_000))} min`, nowrap: true },
  ];
  return (
    <div className="sla-breaches">
      <h2 className="sla-heading">Breaches</h2>
      <PagedLog
        q={q}
        rows={rows}
        columns={columns}
        rowKey={(b) => b.breach_id}
        empty="No SLA breach in the last 90 days."
        testId="sla-breaches"
        rowProps={() => ({ 'data-testid': 'sla-breach-row' })}
        filters={
          <select aria-label="Target" value={target} onChange={(e) => setTarget(e.target.value as SlaTarget | '')}>
            <option value="">Any target</option>
            {SLA_TARGETS.map((t) => (
              <option key={t} value={t}>
                {SLA_TARGET_LABEL[t]}
              </option>
            ))}
          </select>
        }
      />
    </div>
  );
}
