/**
 * /settings/library (admins, spec §2/§6; issue 22): the media library's settings
 * (organization.library_settings): keep incoming / outgoing media, how long items stay listed, and
 * the type /media opens with. Every control saves at once.
 */
import { LIBRARY_DEFAULT_TYPES, LIBRARY_RETENTION_DAYS, type LibrarySettings, type UpdateLibrarySettingsInput } from '#shared/org/org-settings.schemas.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import { useOrgSettings, useSaveOrgSettings } from '../general/api.ts';
import '../team/team.css';
import '../general/org-settings.css';

const TYPE_LABELS: Record<LibrarySettings['default_type'], string> = { all: 'All media', image: 'Images', video: 'Videos', audio: 'Audio', ptt: 'Voice notes', document: 'Documents' };
const SWITCHES: Array<{ key: 'save_incoming' | 'save_outgoing'; label: string; help: string }> = [
  { key: 'save_incoming', label: 'Keep media customers send', help: 'Photos, videos, audio and documents received in chats appear in the library.' },
  { key: 'save_outgoing', label: 'Keep media your team sends', help: 'Files sent from Chorus appear in the library.' },
];

export function LibrarySettingsPage() {
  const { org } = useSession();
  const toast = useToast();
  const query = useOrgSettings(org.org_id, 'library');
  const save = useSaveOrgSettings(org.org_id, 'library');

  async function put(input: UpdateLibrarySettingsInput) {
    try {
      await save.mutateAsync(input);
      toast.show('Media library settings saved', 'success');
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    }
  }

  const s = query.data;
  return (
    <div className="page" data-testid="library-settings">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Media Library" />
      </header>
      <div className="page-body">
        {query.isPending && <p className="muted">Loading settings…</p>}
        {query.isError && (
          <div className="inline-state" role="alert">
            <span>Could not load the settings: {errorMessage(query.error)}</span>
            <button type="button" className="link-btn" onClick={() => void query.refetch()}>
              Retry
            </button>
          </div>
        )}
        {s && (
          <div className="os-form">
            <section className="os-section" aria-labelledby="lib-keep">
              <h2 id="lib-keep">What the library keeps</h2>
              <ul className="toggle-list">
                {SWITCHES.map((t) => (
                  <li key={t.key} className="toggle-row">
                    <span className="toggle-text">
                      <span id={`lib-${t.key}`}>{t.label}</span>
                      <small>{t.help}</small>
                    </span>
                    <span className="switch">
                      <input type="checkbox" role="switch" aria-labelledby={`lib-${t.key}`} data-testid={`lib-${t.key}`} checked={s[t.key]} disabled={save.isPending} onChange={(e) => void put({ [t.key]: e.target.checked })} />
                    </span>
                  </li>
                ))}
              </ul>
            </section>
            <section className="os-section" aria-labelledby="lib-view">
              <h2 id="lib-view">Listing</h2>
              <label className="field">
                <span>Keep items listed for</span>
                <select value={s.retention_days ?? ''} disabled={save.isPending} onChange={(e) => void put({ retention_days: e.target.value ? (Number(e.target.value) as LibrarySettings['retention_days']) : null })} data-testid="lib-retention_days">
                  <option value="">Forever</option>
                  {LIBRARY_RETENTION_DAYS.map((d) => (
                    <option key={d} value={d}>
                      {d === 365 ? '1 year' : `${d} days`}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Open the library on</span>
                <select value={s.default_type} disabled={save.isPending} onChange={(e) => void put({ default_type: e.target.value as LibrarySettings['default_type'] })} data-testid="lib-default_type">
                  {LIBRARY_DEFAULT_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {TYPE_LABELS[t]}
                    </option>
                  ))}
                </select>
              </label>
            </section>
          </div>
        )}
      </div>
    </div>
  );
}
