/**
 * /settings/integrations/zapier and /settings/integrations/pabbly (admins; issue 20 item 5): the
 * steps to connect, the REST hook calls those services make (subscribe, unsubscribe, sample),
 * every trigger with its sample payload, and the hooks they subscribed (removable here).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../app/session.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../settings/index.ts';
import { EndpointCard } from './WebhooksPage.tsx';
import { webhookKeys, webhooksApi } from './api.ts';
import './webhooks.css';

const STEPS: Record<'zapier' | 'pabbly', string[]> = {
  zapier: [
    'In Chorus, create an API key with read access on Settings → Integrations → API (admins).',
    'In Zapier, create a Zap and pick Chorus as the trigger app (or "Webhooks by Zapier → REST Hook" with the calls below).',
    'Choose a trigger (an event below) and sign in with your API key.',
    'Zapier subscribes its hook URL to that event; test the trigger to load the sample payload shown here.',
    'Turn the Zap on. Turning it off unsubscribes the hook, which then disappears from the list below.',
  ],
  pabbly: [
    'In Chorus, create an API key with read access on Settings → Integrations → API (admins).',
    'In Pabbly Connect, create a workflow and choose Chorus (or "Webhook by Pabbly" with the REST hook calls below) as the trigger.',
    'Pick the event, paste your API key, and let Pabbly subscribe its webhook URL.',
    'Click "Capture webhook response" and send a test event from the hook below, or use the sample payload.',
    'Map the fields into your actions and save the workflow.',
  ],
};

export function RestHookPage({ source }: { source: 'zapier' | 'pabbly' }) {
  const { org } = useSession();
  const name = source === 'zapier' ? 'Zapier' : 'Pabbly';
  const catalogue = useQuery({ queryKey: webhookKeys.catalogue(org.org_id), queryFn: () => webhooksApi.catalogue(org.org_id) });
  const endpoints = useQuery({ queryKey: webhookKeys.endpoints(org.org_id), queryFn: () => webhooksApi.endpoints(org.org_id) });
  const [sample, setSample] = useState<string>('message.received');
  const hooks = (endpoints.data ?? []).filter((e) => e.kind === source);
  const shown = catalogue.data?.events.find((e) => e.type === sample);
  return (
    <div className="page" data-testid={`${source}-page`}>
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title={name} />
      </header>
      <div className="page-body settings-form">
        <section className="settings-section" aria-labelledby="rh-steps">
          <h2 id="rh-steps">Connect {name}</h2>
          <ol className="wh-steps">
            {STEPS[source].map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
        </section>
        <section className="settings-section" aria-labelledby="rh-calls">
          <h2 id="rh-calls">REST hook calls</h2>
          <table className="wh-table">
            <tbody>
              <tr>
                <th scope="row">Subscribe</th>
                <td>
                  <code>{`POST /v1/orgs/${org.org_id}/hooks`}</code> <span className="muted small">body</span> <code>{`{ "target_url": "<hook URL>", "event": "<event>", "source": "${source}" }`}</code> → <code>{'{ "id": "ep_…" }'}</code>
                </td>
              </tr>
              <tr>
                <th scope="row">Unsubscribe</th>
                <td>
                  <code>{`DELETE /v1/orgs/${org.org_id}/hooks/{id}`}</code>
                </td>
              </tr>
              <tr>
                <th scope="row">Sample</th>
                <td>
                  <code>{`GET /v1/orgs/${org.org_id}/hooks/samples/{event}`}</code> → <code>[payload]</code>
                </td>
              </tr>
            </tbody>
          </table>
          <p className="muted small">Authenticate with <code>Authorization: Bearer &lt;API key&gt;</code> (a key with the <code>webhooks</code> write scope, from Settings → Integrations → API). Hook URLs must be https and public. Payloads are the same signed JSON as webhooks.</p>
        </section>
        <section className="settings-section" aria-labelledby="rh-triggers">
          <h2 id="rh-triggers">Triggers and sample payloads</h2>
          {catalogue.isError && <p role="alert">Could not load the triggers: {errorMessage(catalogue.error)}</p>}
          <div className="wh-chips" role="tablist" aria-label="Triggers">
            {(catalogue.data?.events ?? []).map((e) => (
              <button key={e.type} type="button" role="tab" aria-selected={sample === e.type} className={`wh-chip wh-chip-btn${sample === e.type ? ' is-on' : ''}`} onClick={() => setSample(e.type)}>
                {e.type}
              </button>
            ))}
          </div>
          {shown && (
            <pre className="wh-pre" data-testid="rh-sample">
              {JSON.stringify(shown.sample, null, 2)}
            </pre>
          )}
        </section>
        <section className="settings-section" aria-labelledby="rh-hooks">
          <h2 id="rh-hooks">Subscribed {name} hooks</h2>
          {endpoints.isSuccess && !hooks.length && <p className="muted">None yet: they appear here when {name} subscribes.</p>}
          <ul className="wh-list">
            {hooks.map((e) => (
              <EndpointCard key={e.endpoint_id} orgId={org.org_id} endpoint={e} />
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

export const ZapierPage = () => <RestHookPage source="zapier" />;
export const PabblyPage = () => <RestHookPage source="pabbly" />;
