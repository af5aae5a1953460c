/**
 * /settings/templates (issue 16; linked from Settings → Phones, open to members): the WhatsApp
 * message templates of a Cloud API number (name, language, category, status), a preview with the
 * variables filled in, and for admins a Sync button that reads them from Meta
 * (`GET /{waba_id}/message_templates`) and says what changed.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { ListSkeleton, LoadError } from '../../components/ui/ListStates.tsx';
import { SettingsTitle } from '../settings/index.ts';
import { errorMessage } from '../../lib/api.ts';
import { formatPhone } from '../../lib/format.ts';
import { templateKeys, templatesApi, type SyncResult, type TemplateView } from './api.ts';
import { TemplateForm } from './TemplateForm.tsx';
import './templates.css';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function TemplatesPage() {
  const { org } = useSession();
  const toast = useToast();
  const qc = useQueryClient();
  const isAdmin = org.role === 'admin';
  const cloudPhones = (org.phones ?? []).filter((p) => p.connection_type !== 'wa_web');
  const [phoneId, setPhoneId] = useState<string | null>(cloudPhones[0]?.phone_id ?? null);
  const [open, setOpen] = useState<string | null>(null);
  const [syncing, setSyncing] = useState(false);
  const [result, setResult] = useState<SyncResult | null>(null);
  const q = useQuery({ queryKey: templateKeys.list(org.org_id, phoneId), queryFn: () => templatesApi.list(org.org_id, phoneId), enabled: !!phoneId });

  async function sync() {
    if (!phoneId) return;
    setSyncing(true);
    try {
      const [r] = await templatesApi.sync(org.org_id, phoneId);
      setResult(r);
      await qc.invalidateQueries({ queryKey: templateKeys.all(org.org_id) });
    } catch (e) {
      toast.show(`Templates not synced: ${errorMessage(e)}`, 'error');
    } finally {
      setSyncing(false);
    }
  }

  const rows = q.data?.templates ?? [];
  const lastSync = rows.reduce((m, t) => Math.max(m, t.synced_at), 0);
  return (
    <div className="page" data-testid="templates-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Message templates" />
        <div className="tpl-head-actions">
          {cloudPhones.length > 1 && (
            <label className="tpl-phone">
              <span className="visually-hidden">Number</span>
              <select value={phoneId ?? ''} onChange={(e) => setPhoneId(e.target.value)} data-testid="template-phone">
                {cloudPhones.map((p) => (
                  <option key={p.phone_id} value={p.phone_id}>
                    {formatPhone(p.org_phone)}
                  </option>
                ))}
              </select>
            </label>
          )}
          {isAdmin && phoneId && (
            <button type="button" className="btn btn-primary" onClick={() => void sync()} disabled={syncing} aria-busy={syncing} data-testid="template-sync">
              {syncing ? 'Syncing…' : 'Sync from WhatsApp'}
            </button>
          )}
        </div>
      </header>
      <div className="page-body">
        <p className="tpl-intro">
          Templates are messages approved by WhatsApp. They are the only messages a Cloud API number may send when the customer has not written in the last 24 hours.
          {lastSync > 0 && <> Last synced {when.format(lastSync)}.</>}
        </p>
        {result && (
          <p className="tpl-result" role="status" data-testid="template-sync-result">
            Synced {result.synced} template{result.synced === 1 ? '' : 's'} from WhatsApp
            {result.removed ? `, removed ${result.removed} no longer there` : ''}
            {result.skipped ? `, skipped ${result.skipped} in an unknown shape` : ''}.
          </p>
        )}
        {!phoneId && <p className="tpl-empty">Templates are a WhatsApp Cloud API feature; this workspace has no Cloud API number.</p>}
        {phoneId && q.isPending && <ListSkeleton rows={4} label="Loading templates" />}
        {q.isError && <LoadError what="templates" error={errorMessage(q.error)} onRetry={() => void q.refetch()} />}
        {q.data && rows.length === 0 && <p className="tpl-empty">No templates yet.{isAdmin ? ' Sync them from WhatsApp.' : ' An admin can sync them from WhatsApp.'}</p>}
        {rows.length > 0 && (
          <ul className="tpl-list" data-testid="template-list">
            {rows.map((t: TemplateView) => {
              const key = `${t.name}|${t.language}`;
              const expanded = open === key;
              return (
                <li key={key} className="tpl-row" data-testid="template-row">
                  <button type="button" className="tpl-row-head" aria-expanded={expanded} onClick={() => setOpen(expanded ? null : key)}>
                    <span className="tpl-name">{t.name}</span>
                    <span className="tpl-meta">{t.language}</span>
                    <span className="tpl-meta">{t.category.toLowerCase()}</span>
                    <span className={`tpl-status tpl-status-${t.status.toLowerCase()}`}>{t.status.toLowerCase().replace(/_/g, ' ')}</span>
                  </button>
                  {expanded && (
                    <div className="tpl-row-body">
                      <TemplateForm templates={[t]} idPrefix={`tpl-page-${key}`} />
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
