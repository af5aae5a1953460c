/**
 * /rules (issue 17; admins, or members when member_permissions.rules allows — spec §2/§6): the
 * org's automation rules as sentences with an enable switch, the editor, a dry run against the
 * last 100 matching events, the version history, and the Rules log (each evaluation: trigger,
 * matched or why not, each action's outcome and timing; filter by rule, chat and outcome).
 * Desktop only (web/src/app/shell/nav.ts MOBILE_UNAVAILABLE). Plans (spec §9): Starter lacks the
 * rules engine, so the page is wrapped in `PlanGate` (the API refuses with plan_feature).
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorMessage, fieldErrors } from '../../lib/api.ts';
import { useMembers } from '../../lib/members.ts';
import { chatIdLabel } from '../../lib/format.ts';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { Tabs } from '../../components/ui/Tabs.tsx';
import { RULE_OUTCOMES } from '#shared/rules/rule.schemas.ts';
import { PlanGate } from '../plans/index.ts';
import { propertiesApi, propertyKeys } from '../contacts/index.ts';
import { RuleEditor, emptyDraft, type Draft } from './RuleEditor.tsx';
import { pausedText, ruleSentence, triggerText } from './sentence.ts';
import { ruleKeys, rulesApi, type DryRun, type LogFilter, type Rule } from './api.ts';
import { SlaTab } from './SlaTab.tsx';
import './rules.css';

export function RulesPage() {
  return (
    <PlanGate feature="rules_engine">
      <RulesPageBody />
    </PlanGate>
  );
}

function RulesPageBody() {
  const { org } = useSession();
  // `?log=<rule_id>` (a rule's name on /logs): the Log tab, filtered to that rule
  const [params] = useSearchParams();
  const [tab, setTab] = useState(params.get('log') ? 'log' : 'rules');
  const [logRule, setLogRule] = useState<string>(params.get('log') ?? '');
  const { labels, name } = useLabelNames(org.org_id);
  return (
    <div className="page rules-page" data-testid="rules-page">
      <header className="page-header">
        <MenuButton />
        <h1>Rules</h1>
      </header>
      <div className="page-body">
        <Tabs
          label="Rules"
          value={tab}
          onChange={setTab}
          items={[
            { value: 'rules', label: 'Rules', testId: 'rules-tab', panel: <RulesList orgId={org.org_id} onShowLog={(id) => (setLogRule(id), setTab('log'))} /> },
            { value: 'log', label: 'Log', testId: 'rules-log-tab', panel: <RuleLogView orgId={org.org_id} ruleId={logRule} onRule={setLogRule} /> },
            { value: 'sla', label: 'SLA', testId: 'rules-sla-tab', panel: <SlaTab orgId={org.org_id} labels={labels} labelName={name} /> },
          ]}
        />
      </div>
    </div>
  );
}

function useLabelNames(orgId: string) {
  const labels = useQuery({ queryKey: ['orgs', orgId, 'rules', 'labels'], queryFn: () => api.chatLabels(orgId) });
  const byId = useMemo(() => new Map((labels.data ?? []).map((l) => [l.label_id, l.name])), [labels.data]);
  return { labels: labels.data ?? [], name: (id: string) => byId.get(id) ?? id };
}

function RulesList({ orgId, onShowLog }: { orgId: string; onShowLog: (ruleId: string) => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const q = useQuery({ queryKey: ruleKeys.list(orgId), queryFn: () => rulesApi.list(orgId) });
  const { labels, name } = useLabelNames(orgId);
  const members = useMembers(orgId);
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ruleKeys.all(orgId) });
  const save = useMutation({
    mutationFn: (d: Draft) => (editing === 'new' || !editing ? rulesApi.create(orgId, d) : rulesApi.update(orgId, editing.rule_id, d)),
    onSuccess: () => {
      toast.show(editing === 'new' ? 'Rule created' : 'Rule saved', 'success');
      setEditing(null);
      setError(null);
      refresh();
    },
    onError: (e) => {
      const f = fieldErrors(e);
      setError(f.length ? f.map((x) => `${x.field}: ${x.reason}`).join('; ') : errorMessage(e));
    },
  });
  const toggle = useMutation({
    mutationFn: (r: Rule) => rulesApi.update(orgId, r.rule_id, { enabled: !r.enabled }),
    onSuccess: (r) => {
      toast.show(r.enabled ? 'Rule enabled' : 'Rule disabled', 'success');
      refresh();
    },
    onError: (e) => toast.show(errorMessage(e), 'error'),
  });
  const remove = (r: Rule) => {
    if (!window.confirm(`Delete the rule “${r.name}”? Its log stays for 90 days.`)) return;
    rulesApi.remove(orgId, r.rule_id).then(
      () => {
        toast.show('Rule deleted', 'success');
        refresh();
      },
      (e: unknown) => toast.show(errorMessage(e), 'error'),
    );
  };
  const rules = q.data?.rules ?? [];
  const properties = useQuery({ queryKey: propertyKeys.all(orgId), queryFn: () => propertiesApi.list(orgId) });
  const pickers = { labels, members, properties: properties.data ?? [] };
  return (
    <section className="rules-section">
      <div className="rules-toolbar">
        <p className="muted">
          Rules act on their own when something happens in the inbox. Your plan allows {q.data?.limit ?? '…'} rules ({q.data?.per_licence ?? 2} per licence).
        </p>
        {!editing && (
          <button type="button" className="btn btn-primary" onClick={() => (setError(null), setEditing('new'))} data-testid="rule-new">
            New rule
          </button>
        )}
      </div>
      {editing && (
        <RuleEditor
          key={editing === 'new' ? 'new' : editing.rule_id}
          initial={editing === 'new' ? emptyDraft() : { name: editing.name, trigger: editing.trigger, conditions: editing.conditions, actions: editing.actions, enabled: editing.enabled, allow_after_automation: editing.allow_after_automation }}
          pickers={pickers}
          saving={save.isPending}
          error={error}
          onSave={(d) => save.mutate(d)}
          onCancel={() => setEditing(null)}
        />
      )}
      {q.isPending && <p className="muted">Loading rules…</p>}
      {q.isError && (
        <div className="inline-state" role="alert">
          <span>Could not load the rules: {errorMessage(q.error)}</span>
          <button type="button" className="link-btn" onClick={() => void q.refetch()}>
            Retry
          </button>
        </div>
      )}
      {q.isSuccess && !rules.length && !editing && <p className="muted">No rules yet. Create one: “When a message is received and the chat has label VIP, assign to …”.</p>}
      <ul className="rules-list">
        {rules.map((r) => (
          <RuleCard key={r.rule_id} orgId={orgId} rule={r} sentence={ruleSentence(r, name)} onEdit={() => (setError(null), setEditing(r))} onToggle={() => toggle.mutate(r)} onDelete={() => remove(r)} onShowLog={() => onShowLog(r.rule_id)} />
        ))}
      </ul>
    </section>
  );
}

function RuleCard({ orgId, rule: r, sentence, onEdit, onToggle, onDelete, onShowLog }: { orgId: string; rule: Rule; sentence: string; onEdit: () => void; onToggle: () => void; onDelete: () => void; onShowLog: () => void }) {
  const [panel, setPanel] = useState<'none' | 'dry' | 'history'>('none');
  const dry = useMutation({ mutationFn: () => rulesApi.dryRun(orgId, r.rule_id) });
  const history = useQuery({ queryKey: ruleKeys.one(orgId, r.rule_id), queryFn: () => rulesApi.get(orgId, r.rule_id), enabled: panel === 'history' });
  return (
    <li className="rule-card" data-testid="rule-card" data-rule-id={r.rule_id}>
      <div className="rule-card-head">
        <label className="rule-switch" title={r.enabled ? 'Disable' : 'Enable'}>
          <input type="checkbox" role="switch" checked={r.enabled} onChange={onToggle} aria-label={`${r.enabled ? 'Disable' : 'Enable'} ${r.name}`} data-testid="rule-enabled" />
          <span>{r.enabled ? 'On' : 'Off'}</span>
        </label>
        <div className="rule-card-title">
          <strong>{r.name}</strong>
          <span className="muted small">
            v{r.version} · {triggerText(r.trigger)} · acts as {r.owner}
          </span>
        </div>
        <div className="rule-card-buttons">
          <button type="button" className="btn btn-small" onClick={onEdit} data-testid="rule-edit">
            Edit
          </button>
          <button type="button" className="btn btn-small" onClick={() => (setPanel('dry'), dry.mutate())} data-testid="rule-dry-run">
            Dry run
          </button>
          <button type="button" className="btn btn-small" onClick={onShowLog}>
            Runs
          </button>
          <button type="button" className="btn btn-small" onClick={() => setPanel(panel === 'history' ? 'none' : 'history')}>
            History
          </button>
          <button type="button" className="btn btn-small btn-danger" onClick={onDelete}>
            Delete
          </button>
        </div>
      </div>
      <p className="rule-sentence" data-testid="rule-sentence">
        {sentence}
      </p>
      {r.paused_reason && (
        <p className="rule-paused" role="status" data-testid="rule-paused">
          {pausedText(r)}
        </p>
      )}
      {panel === 'dry' && <DryRunPanel state={dry} onClose={() => setPanel('none')} />}
      {panel === 'history' && (
        <div className="rule-panel">
          {history.isPending && <p className="muted">Loading history…</p>}
          <ol className="rule-history">
            {history.data?.versions.map((v) => (
              <li key={v.version}>
                v{v.version} {v.change} by {v.by} · {new Date(v.at).toLocaleString()}
              </li>
            ))}
          </ol>
        </div>
      )}
    </li>
  );
}

function DryRunPanel({ state, onClose }: { state: { isPending: boolean; isError: boolean; error: unknown; data?: DryRun }; onClose: () => void }) {
  return (
    <div className="rule-panel" data-testid="rule-dry-run-result">
      <div className="rule-line">
        <strong>Dry run</strong>
        <button type="button" className="link-btn" onClick={onClose}>
          Close
        </button>
      </div>
      {state.isPending && <p className="muted">Evaluating the last 100 matching events…</p>}
      {state.isError && <p role="alert">{errorMessage(state.error)}</p>}
      {state.data && (
        <>
          <p>
            Of the last {state.data.evaluated} events, it would have matched {state.data.matched}. Nothing was changed.
          </p>
          <ul className="rule-dry-list">
            {state.data.results.slice(0, 20).map((x) => (
              <li key={x.event_id + x.at} className={x.matched ? 'rule-ok' : 'muted'}>
                <span className="small">{new Date(x.at).toLocaleString()}</span> {x.matched ? `would ${x.actions.map((a) => a.would).join('; ')}` : `no: ${x.reasons.join('; ')}`}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function RuleLogView({ orgId, ruleId, onRule }: { orgId: string; ruleId: string; onRule: (id: string) => void }) {
  const [outcome, setOutcome] = useState('');
  const [chat, setChat] = useState('');
  const rules = useQuery({ queryKey: ruleKeys.list(orgId), queryFn: () => rulesApi.list(orgId) });
  const { name } = useLabelNames(orgId);
  const named = (text: string) => text.replace(/lbl_[A-Za-z0-9]+/g, (id) => `“${name(id)}”`);
  const filter: LogFilter = { ...(ruleId ? { rule_id: ruleId } : {}), ...(outcome ? { outcome } : {}), ...(chat.trim() ? { chat_id: chat.trim() } : {}) };
  const q = useInfiniteQuery({
    queryKey: ruleKeys.logs(orgId, filter),
    queryFn: ({ pageParam }) => rulesApi.logs(orgId, filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
  const logs = q.data?.pages.flatMap((p) => p.logs) ?? [];
  return (
    <section className="rules-section" data-testid="rules-log">
      <div className="rule-line rules-filters">
        <select aria-label="Rule" value={ruleId} onChange={(e) => onRule(e.target.value)}>
          <option value="">All rules</option>
          {rules.data?.rules.map((r) => (
            <option key={r.rule_id} value={r.rule_id}>
              {r.name}
            </option>
          ))}
        </select>
        <select aria-label="Outcome" value={outcome} onChange={(e) => setOutcome(e.target.value)}>
          <option value="">Any outcome</option>
          {RULE_OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o.replace('_', ' ')}
            </option>
          ))}
        </select>
        <input aria-label="Chat" placeholder="chat id" value={chat} onChange={(e) => setChat(e.target.value)} />
        <button type="button" className="btn btn-small" onClick={() => void q.refetch()}>
          Refresh
        </button>
      </div>
      {q.isPending && <p className="muted">Loading the log…</p>}
      {q.isError && <p role="alert">Could not load the log: {errorMessage(q.error)}</p>}
      {q.isSuccess && !logs.length && <p className="muted">Nothing logged yet for this filter.</p>}
      <table className="rules-log-table">
        <thead>
          <tr>
            <th>When</th>
            <th>Rule</th>
            <th>Trigger</th>
            <th>Chat</th>
            <th>Outcome</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {logs.map((l) => (
            <tr key={l.log_id} data-testid="rule-log-row" data-outcome={l.outcome}>
              <td className="small">{new Date(l.at).toLocaleString()}</td>
              <td>
                {l.rule_name} <span className="muted small">v{l.rule_version}</span>
              </td>
              <td className="small">{l.trigger}</td>
              <td className="small rules-chat">{l.chat_id ? chatIdLabel(l.chat_id) : '—'}</td>
              <td>
                <span className={`rule-outcome rule-outcome-${l.outcome}`}>{l.outcome.replace('_', ' ')}</span>
                {l.latency_ms != null && <span className="muted small"> {l.latency_ms} ms</span>}
              </td>
              <td className="small">
                {l.reasons.map((r, i) => (
                  <div key={i}>{r}</div>
                ))}
                {l.actions.map((a) => (
                  <div key={a.index}>
                    {a.index + 1}. {a.type}: {a.status}
                    {a.detail ? ` — ${named(a.detail)}` : ''}
                    {a.ms != null ? ` (${a.ms} ms)` : ''}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {q.hasNextPage && (
        <button type="button" className="btn" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {q.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
