/**
 * /settings/integrations/api (admins; issue 20): create named API keys with read/write scopes per
 * area (the token is shown once), see when each was last used, revoke; the latest API requests
 * (route, status, latency, key) and links to the API reference and the OpenAPI document.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_AREAS, type ApiScope } from '#shared/apikey/api-key.rules.ts';
import { CreateApiKeyInput, type ApiKey } from '#shared/apikey/api-key.schemas.ts';
import { errorMessage } from '../../lib/api.ts';
import { getConfig } from '../../lib/config.ts';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../settings/index.ts';
import { integrationKeys, integrationsApi } from './api.ts';
import './integrations.css';

const when = (ms: number | null) => (ms ? new Date(ms).toLocaleString() : 'Never');

export function ApiKeysPage() {
  const { org } = useSession();
  const toast = useToast();
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: integrationKeys.apiKeys(org.org_id), queryFn: () => integrationsApi.listKeys(org.org_id) });
  const logs = useQuery({ queryKey: integrationKeys.apiLogs(org.org_id), queryFn: () => integrationsApi.listLogs(org.org_id) });
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Set<ApiScope>>(new Set(['chats:read', 'messages:read']));
  const [token, setToken] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: (input: CreateApiKeyInput) => integrationsApi.createKey(org.org_id, input),
    onSuccess: (r) => {
      setToken(r.token);
      setName('');
      qc.setQueryData<ApiKey[]>(integrationKeys.apiKeys(org.org_id), (prev) => [r.api_key, ...(prev ?? [])]);
      toast.show(`API key ${r.api_key.name} created`, 'success');
    },
    onError: (e) => toast.show(errorMessage(e), 'error'),
  });
  const revoke = useMutation({
    mutationFn: (k: ApiKey) => integrationsApi.revokeKey(org.org_id, k.key_id),
    onSuccess: (k) => {
      qc.setQueryData<ApiKey[]>(integrationKeys.apiKeys(org.org_id), (prev) => prev?.map((x) => (x.key_id === k.key_id ? k : x)));
      toast.show(`API key ${k.name} revoked`, 'success');
    },
    onError: (e) => toast.show(errorMessage(e), 'error'),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = CreateApiKeyInput.safeParse({ name, scopes: [...scopes] });
    if (!parsed.success) return toast.show(`${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`, 'error');
    create.mutate(parsed.data);
  }
  const toggle = (s: ApiScope) =>
    setScopes((prev) => {
      const next = new Set(prev);
      if (next.has(s)) next.delete(s);
      else next.add(s);
      return next;
    });
  const base = getConfig().apiUrl || window.location.origin;

  return (
    <div className="page" data-testid="api-keys-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="API" />
      </header>
      <div className="page-body page-body-wide settings-form">
        <section className="settings-section" aria-labelledby="api-intro">
          <h2 id="api-intro">Public API</h2>
          <p className="muted">
            Call <code>{base}/v1/orgs/{org.org_id}/…</code> with <code>Authorization: Bearer &lt;API key&gt;</code>. Read the{' '}
            <Link to="/settings/integrations/api/reference">API reference</Link> or download the <a href={`${base}/v1/openapi.json`}>OpenAPI document</a>. Assistants can use the{' '}
            <Link to="/settings/integrations/mcp">MCP server</Link> with the same keys.
          </p>
        </section>

        <section className="settings-section" aria-labelledby="api-create">
          <h2 id="api-create">Create an API key</h2>
          <form onSubmit={submit} noValidate className="settings-form">
            <label className="field">
              <span>Name</span>
              <input value={name} onChange={(e) => setName(e.target.value)} placeholder="CRM sync" maxLength={80} data-testid="api-key-name" />
            </label>
            <fieldset className="scope-grid" data-testid="api-key-scopes">
              <legend className="visually-hidden">Scopes</legend>
              <span className="scope-head">Area</span>
              <span className="scope-head">Read</span>
              <span className="scope-head">Write</span>
              {API_AREAS.map((area) => (
                <ScopeRow key={area} area={area} scopes={scopes} toggle={toggle} />
              ))}
            </fieldset>
            <div>
              <button type="submit" className="btn btn-primary" disabled={create.isPending || !name.trim()} data-testid="api-key-create">
                {create.isPending ? 'Creating…' : 'Create key'}
              </button>
            </div>
          </form>
          {token && (
            <div className="settings-section" role="status" data-testid="api-key-token">
              <p>
                <strong>Copy this key now.</strong> It is shown only once; Chorus keeps only a hash of it.
              </p>
              <div className="token-row">
                <code className="token-box" data-testid="api-key-token-value">
                  {token}
                </code>
                <button type="button" className="btn" onClick={() => void navigator.clipboard?.writeText(token).then(() => toast.show('Copied', 'success'))}>
                  Copy
                </button>
                <button type="button" className="link-btn" onClick={() => setToken(null)}>
                  Done
                </button>
              </div>
            </div>
          )}
        </section>

        <section className="settings-section" aria-labelledby="api-keys">
          <h2 id="api-keys">API keys</h2>
          {keys.isPending && <p className="muted">Loading keys…</p>}
          {keys.error && <p role="alert">Could not load the keys: {errorMessage(keys.error)}</p>}
          {keys.data && keys.data.length === 0 && <p className="muted">No API keys yet.</p>}
          {keys.data && keys.data.length > 0 && (
            <div className="table-scroll">
              <table className="key-table" data-testid="api-key-list">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Key</th>
                    <th>Scopes</th>
                    <th>Last used</th>
                    <th>Status</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {keys.data.map((k) => (
                    <tr key={k.key_id} data-testid={`api-key-row-${k.key_id}`}>
                      <td>{k.name}</td>
                      <td>
                        <code>{k.prefix}…</code>
                      </td>
                      <td className="key-scopes">{k.scopes.join(', ')}</td>
                      <td>{when(k.last_used_at)}</td>
                      <td data-testid="api-key-status">{k.revoked_at ? `Revoked ${new Date(k.revoked_at).toLocaleDateString()}` : 'Active'}</td>
                      <td>
                        {!k.revoked_at && (
                          <button
                            type="button"
                            className="btn btn-danger"
                            disabled={revoke.isPending}
                            onClick={() => window.confirm(`Revoke ${k.name}? Apps using it stop working at once.`) && revoke.mutate(k)}
                            data-testid="api-key-revoke"
                          >
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>

        <section className="settings-section" aria-labelledby="api-logs">
          <h2 id="api-logs">Recent requests</h2>
          <p className="muted small">Every API and MCP request is kept for 90 days.</p>
          {logs.data && logs.data.length === 0 && <p className="muted">No requests yet.</p>}
          {logs.data && logs.data.length > 0 && (
            <div className="table-scroll">
              <table className="key-table" data-testid="api-log-list">
                <thead>
                  <tr>
                    <th>Time</th>
                    <th>Route</th>
                    <th>Status</th>
                    <th>Latency</th>
                    <th>Key</th>
                  </tr>
                </thead>
                <tbody>
                  {logs.data.slice(0, 50).map((l) => (
                    <tr key={l.log_id}>
                      <td>{new Date(l.at).toLocaleString()}</td>
                      <td>
                        <code>{l.route}</code>
                      </td>
                      <td>{l.status}</td>
                      <td>{l.latency_ms} ms</td>
                      <td>{keys.data?.find((k) => k.key_id === l.key_id)?.name ?? l.key_id}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}

function ScopeRow({ area, scopes, toggle }: { area: string; scopes: Set<ApiScope>; toggle: (s: ApiScope) => void }) {
  const r = `${area}:read` as ApiScope;
  const w = `${area}:write` as ApiScope;
  return (
    <>
      <span>{area[0]!.toUpperCase() + area.slice(1)}</span>
      <input type="checkbox" aria-label={`${area} read`} checked={scopes.has(r) || scopes.has(w)} disabled={scopes.has(w)} onChange={() => toggle(r)} data-testid={`scope-${r}`} />
      <input type="checkbox" aria-label={`${area} write`} checked={scopes.has(w)} onChange={() => toggle(w)} data-testid={`scope-${w}`} />
    </>
  );
}
