/**
 * /settings/integrations/slack (admins; issue 20 item 7): a Slack incoming-webhook URL and the
 * events posted to that channel (a new unassigned chat, a mention, an SLA breach), delivered by the
 * webhook engine as Block Kit messages; test, log and replay like any endpoint.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SLACK_EVENTS } from '#shared/webhooks/webhook.rules.ts';
import { errorMessage, fieldErrors } from '../../lib/api.ts';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../settings/index.ts';
import { EventPicker } from './EventPicker.tsx';
import { EndpointCard } from './WebhooksPage.tsx';
import { webhookKeys, webhooksApi } from './api.ts';
import './webhooks.css';

const LABELS: Record<string, string> = {
  'chat.new_unassigned': 'A new unassigned chat',
  'mention.created': 'A mention in a private note',
  'sla.breached': 'An SLA breach (when SLAs are set up)',
};

export function SlackPage() {
  const { org } = useSession();
  const qc = useQueryClient();
  const toast = useToast();
  const q = useQuery({ queryKey: webhookKeys.slack(org.org_id), queryFn: () => webhooksApi.slack(org.org_id) });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['chat.new_unassigned', 'mention.created']);
  const [urlError, setUrlError] = useState<string | null>(null);
  useEffect(() => {
    if (q.data) {
      setUrl(q.data.url);
      setEvents(q.data.events);
    }
  }, [q.data]);
  const save = useMutation({
    mutationFn: () => webhooksApi.putSlack(org.org_id, { url: url.trim(), events, enabled: q.data?.enabled ?? true }),
    onSuccess: () => {
      setUrlError(null);
      toast.show('Slack settings saved', 'success');
      void qc.invalidateQueries({ queryKey: webhookKeys.all(org.org_id) });
    },
    onError: (e) => {
      const f = fieldErrors(e).find((x) => x.field === 'url');
      setUrlError(f ? `The URL ${f.reason}` : null);
      toast.show(errorMessage(e), 'error');
    },
  });
  const remove = useMutation({
    mutationFn: () => webhooksApi.deleteSlack(org.org_id),
    onSuccess: () => {
      setUrl('');
      toast.show('Slack disconnected', 'success');
      void qc.invalidateQueries({ queryKey: webhookKeys.all(org.org_id) });
    },
    onError: (e) => toast.show(errorMessage(e), 'error'),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <div className="page" data-testid="slack-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Slack" />
      </header>
      <div className="page-body settings-form">
        <section className="settings-section" aria-labelledby="slack-setup">
          <h2 id="slack-setup">Post Chorus events to a Slack channel</h2>
          <ol className="wh-steps">
            <li>
              In Slack, create an app (api.slack.com/apps), turn on <strong>Incoming Webhooks</strong> and add one to the channel you want.
            </li>
            <li>Paste its URL (https://hooks.slack.com/services/…) here and choose the events.</li>
            <li>Save, then send a test message.</li>
          </ol>
          <form className="wh-form" onSubmit={submit} noValidate>
            <label className="field">
              <span>Incoming webhook URL</span>
              <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://hooks.slack.com/services/T000/B000/XXXX" aria-invalid={!!urlError} data-testid="slack-url" />
              {urlError && (
                <small className="wh-error" role="alert">
                  {urlError}
                </small>
              )}
            </label>
            <EventPicker name="slack-events" events={SLACK_EVENTS} value={events} onChange={setEvents} labels={LABELS} />
            <div className="wh-actions">
              <button type="submit" className="btn btn-primary" disabled={save.isPending || !url.trim() || !events.length} data-testid="slack-save">
                {save.isPending ? 'Saving…' : 'Save'}
              </button>
              {q.data && (
                <button type="button" className="link-btn danger" onClick={() => window.confirm('Disconnect Slack?') && remove.mutate()}>
                  Disconnect
                </button>
              )}
            </div>
          </form>
        </section>
        {q.data && (
          <section className="settings-section" aria-labelledby="slack-endpoint">
            <h2 id="slack-endpoint">Connection</h2>
            <ul className="wh-list">
              <EndpointCard orgId={org.org_id} endpoint={q.data} showEvents={false} />
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}
