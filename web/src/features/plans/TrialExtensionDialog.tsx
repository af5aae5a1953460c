/**
 * The trial extension request (spec §9: one more week, the team checks within 24 hours; §5 submit
 * disabled while the link is empty; §8 'Failed to submit request'). One request per workspace.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TRIAL_EXTENSION_FAILED } from '#shared/plan/plan.schemas.ts';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { planApi, planKeys } from './api.ts';

export function TrialExtensionDialog({ onClose }: { onClose: () => void }) {
  const { org } = useSession();
  const toast = useToast();
  const qc = useQueryClient();
  const [link, setLink] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      await planApi.requestTrialExtension(org.org_id, link.trim());
      await qc.invalidateQueries({ queryKey: planKeys.plan(org.org_id) });
      toast.show("Request sent. We'll check it within 24 hours.", 'success');
      onClose();
    } catch {
      toast.show(TRIAL_EXTENSION_FAILED, 'error');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog title="Extend your trial" onClose={onClose} testId="trial-extension-dialog">
      <form onSubmit={(e) => void submit(e)} className="lc-form">
        <p>Share a post about Chorus on LinkedIn or X and paste its link here. We check requests within 24 hours and extend your trial by one more week.</p>
        <label>
          Link to your post
          <input type="url" value={link} onChange={(e) => setLink(e.target.value)} placeholder="https://www.linkedin.com/posts/…" data-testid="trial-extension-link" required />
        </label>
        <div className="lc-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!link.trim() || busy} data-testid="trial-extension-submit">
            Submit
          </button>
        </div>
      </form>
    </Dialog>
  );
}
