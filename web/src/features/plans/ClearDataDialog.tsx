/**
 * Help > 'Chats not loading?' / 'App slow?': the local reset (spec §9: databases, caches, service
 * workers, cookies and storage), then a reload; spec §8 'Failed to clear local data!…' when it fails.
 */
import { useState } from 'react';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { useToast } from '../../app/toast.tsx';
import { CLEAR_DATA_FAILED, clearLocalData } from './localReset.ts';
import { link } from './links.ts';

export function ClearDataDialog({ kind, onClose }: { kind: 'chats' | 'slow'; onClose: () => void }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const guide = link(kind === 'chats' ? 'chats_not_loading' : 'app_slow');
  async function reset() {
    setBusy(true);
    try {
      await clearLocalData();
      toast.show('Local data cleared. Reloading…', 'success');
      setTimeout(() => window.location.assign('/login'), 1000);
    } catch {
      toast.show(CLEAR_DATA_FAILED, 'error');
      setBusy(false);
    }
  }
  return (
    <Dialog title={kind === 'chats' ? 'Chats not loading?' : 'App slow?'} onClose={onClose} testId="clear-data-dialog">
      <div className="lc-form">
        <p>
          {kind === 'chats'
            ? 'Clearing the data Chorus keeps in this browser usually fixes chats that do not load. You will need to sign in again; nothing on the server is lost.'
            : 'Clearing the data Chorus keeps in this browser makes it start fresh. You will need to sign in again; nothing on the server is lost.'}
        </p>
        {guide && (
          <a href={guide} target="_blank" rel="noreferrer">
            Read the troubleshooting guide
          </a>
        )}
        <div className="lc-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void reset()} data-testid="clear-data-confirm">
            Clear local data
          </button>
        </div>
      </div>
    </Dialog>
  );
}
