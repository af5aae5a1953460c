/**
 * /settings/integrations/webhooks (admins; issue 20 item 4): outbound webhook endpoints — add one
 * (URL, description, events), see its signing secret (`whsec_…`, Standard Webhooks), rotate it,
 * send a test event, enable / disable, delete, and its delivery log with replay. The API checks
 * every rule (URL: https and a public address, the SSRF guard; members 403).
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PUBLIC_EVENTS } from '#shared/webhooks/webhook.rules.ts';
import { errorMessage, fieldErrors } from '../../lib/api.ts';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../settings/index.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { EventPicker } from './EventPicker.tsx';
import { webhookKeys, webhooksApi, type Endpoint } from './api.ts';
import './webhooks.css';

export function WebhooksPage() {
  const { org } = useSession();
  const q = useQuery({ queryKey: webhookKeys.endpoints(org.org_id), queryFn: () => webhooksApi.endpoints(org.org_id) });
  const endpoints = (q.data ?? []).filter((e) => e.kind === 'webhook');
  return (
    <div className="page" data-testid="webhooks-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Webhooks" />
      </header>
      <div className="page-body settings-form">
        <p className="muted wh-intro">
          Chorus POSTs a JSON event to your URL when something happens, signed per <a href="https://www.standardwebhooks.com/" target="_blank" rel="noreferrer">Standard Webhooks</a> (headers{' '}
          <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Verify it with any Standard Webhooks library and your endpoint's secret. Failed
          deliveries are retried for about a day; an endpoint that keeps failing for 5 days is disabled and the admins get an email.
        </p>
        <AddEndpoint orgId={org.org_id} />
        <section className="settings-section" aria-labelledby="wh-list-title">
          <h2 id="wh-list-title">Endpoints</h2>
          {q.isPending && <p className="muted">Loading endpoints…</p>}
          {q.isError && (
            <div className="inline-state" role="alert">
              <span>Could not load the endpoints: {errorMessage(q.error)}</span>
              <button type="button" className="link-btn" onClick={() => void q.refetch()}>
                Retry
              </button>
            </div>
          )}
          {q.isSuccess && !endpoints.length && <p className="muted">No endpoints yet.</p>}
          <ul className="wh-list">
            {endpoints.map((e) => (
              <EndpointCard key={e.endpoint_id} orgId={org.org_id} endpoint={e} />
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

function AddEndpoint({ orgId }: { orgId: string }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['message.received']);
  const [urlError, setUrlError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => webhooksApi.create(orgId, { url: url.trim(), description: description.trim() || undefined, events }),
    onSuccess: () => {
      setUrl('');
      setDescription('');
      setUrlError(null);
      toast.show('Endpoint added', 'success');
      void qc.invalidateQueries({ queryKey: webhookKeys.endpoints(orgId) });
    },
    onError: (e) => {
      const f = fieldErrors(e).find((x) => x.field === 'url');
      setUrlError(f ? `The URL ${f.reason}` : null);
      toast.show(errorMessage(e), 'error');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <section className="settings-section" aria-labelledby="wh-add-title">
      <h2 id="wh-add-title">Add an endpoint</h2>
      <form className="wh-form" onSubmit={submit} noValidate>
        <label className="field">
          <span>Endpoint URL</span>
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/webhooks/chorus" aria-invalid={!!urlError} data-testid="wh-url" />
          {urlError && (
            <small className="wh-error" role="alert">
              {urlError}
            </small>
          )}
        </label>
        <label className="field">
          <span>Description (optional)</span>
          <input value={description} onChange={(e) => setDescription(e.target.value)} placeholder="CRM sync" maxLength={200} data-testid="wh-description" />
        </label>
        <EventPicker name="new-endpoint-events" events={PUBLIC_EVENTS} value={events} onChange={setEvents} />
        <button type="submit" className="btn btn-primary" disabled={create.isPending || !url.trim() || !events.length} data-testid="wh-add">
          {create.isPending ? 'Adding…' : 'Add endpoint'}
        </button>
      </form>
    </section>
  );
}

export function EndpointCard({ orgId, endpoint: e, showEvents = true }: { orgId: string; endpoint: Endpoint; showEvents?: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [reveal, setReveal] = useState(false);
  const [log, setLog] = useState(false);
  const refresh = () => void qc.invalidateQueries({ queryKey: webhookKeys.all(orgId) });
  const act = <T,>(fn: () => Promise<T>, ok: string) =>
    fn().then(
      () => {
        toast.show(ok, 'success');
        refresh();
      },
      (err: unknown) => toast.show(errorMessage(err), 'error'),
    );
  const remove = () => {
    if (!window.confirm(`Delete the endpoint ${e.url}? Its pending deliveries stop.`)) return;
    void act(() => (e.kind === 'webhook' ? webhooksApi.remove(orgId, e.endpoint_id) : webhooksApi.unsubscribe(orgId, e.endpoint_id)), 'Endpoint deleted');
  };
  return (
    <li className="wh-card" data-testid="wh-endpoint" data-endpoint-id={e.endpoint_id}>
      <div className="wh-card-head">
        <div className="wh-card-title">
          <code className="wh-url">{e.url}</code>
          {e.description && <span className="muted small">{e.description}</span>}
        </div>
        <span className={`wh-status ${e.enabled ? 'wh-succeeded' : 'wh-failed'}`} data-testid="wh-state">
          {e.enabled ? 'Enabled' : e.disabled_reason === 'failing' ? 'Disabled: kept failing' : 'Disabled'}
        </span>
      </div>
      {showEvents && <div className="wh-chips">{e.events.map((ev) => <span key={ev} className="wh-chip">{ev}</span>)}</div>}
      {e.failing_since && e.enabled && <p className="wh-warn small">Failing since {new Date(e.failing_since).toLocaleString()} ({e.failure_streak} failed attempts in a row)</p>}
      <div className="wh-secret small">
        <span>Signing secret</span>
        <code data-testid="wh-secret">{reveal ? e.secret : 'whsec_••••••••••••'}</code>
        <button type="button" className="link-btn" onClick={() => setReveal(!reveal)}>
          {reveal ? 'Hide' : 'Reveal'}
        </button>
        {e.rotating_until && <span className="muted">the previous secret also signs until {new Date(e.rotating_until).toLocaleString()}</span>}
      </div>
      <div className="wh-actions">
        <button type="button" className="btn" disabled={!e.enabled} onClick={() => void act(() => webhooksApi.test(orgId, e.endpoint_id), 'Test event sent')} data-testid="wh-test">
          Send test event
        </button>
        <button type="button" className="btn" onClick={() => setLog(!log)} aria-expanded={log} data-testid="wh-log-toggle">
          {log ? 'Hide deliveries' : 'Deliveries'}
        </button>
        <button type="button" className="btn" onClick={() => window.confirm('Rotate the secret? The old one keeps signing for 24 hours next to the new one.') && void act(() => webhooksApi.rotate(orgId, e.endpoint_id), 'Secret rotated')}>
          Rotate secret
        </button>
        <button type="button" className="btn" onClick={() => void act(() => webhooksApi.update(orgId, e.endpoint_id, { enabled: !e.enabled }), e.enabled ? 'Endpoint disabled' : 'Endpoint enabled')}>
          {e.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="link-btn danger" onClick={remove}>
          Delete
        </button>
      </div>
      {log && <DeliveryLog orgId={orgId} endpointId={e.endpoint_id} />}
    </li>
  );
}
