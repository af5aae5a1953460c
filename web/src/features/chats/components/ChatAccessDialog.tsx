/**
 * Admins: who can see a chat — everyone in the workspace, or only the members ticked (admins
 * always can, spec §6 as built). Others see a restricted chat dimmed.
 */
import { useState } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { OrgMember } from '../../../lib/api.ts';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { MemberAvatar } from './ChatBadges.tsx';

/** `onSave` resolves to an error message, or null when saved (the dialog then closes). */
export function ChatAccessDialog({ chat, members, onClose, onSave }: { chat: Chat; members: OrgMember[]; onClose: () => void; onSave: (access: Record<string, boolean>) => Promise<string | null> }) {
  const current = chat.chat_access ?? {};
  const [restricted, setRestricted] = useState(Object.keys(current).length > 0);
  const [ticked, setTicked] = useState<Set<string>>(() => new Set(Object.entries(current).flatMap(([e, v]) => (v ? [e.toLowerCase()] : []))));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setBusy(true);
    setError(null);
    const access: Record<string, boolean> = {};
    if (restricted) for (const m of members) if (m.role !== 'admin') access[m.email.toLowerCase()] = ticked.has(m.email.toLowerCase());
    if (restricted && Object.keys(access).length === 0) {
      setBusy(false);
      return setError('There are no members besides admins to choose.');
    }
    const err = await onSave(access);
    setBusy(false);
    if (err) setError(err);
    else onClose();
  };
  const tick = (email: string, on: boolean) =>
    setTicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(email);
      else next.delete(email);
      return next;
    });
  return (
    <Dialog title="Who can see this chat" onClose={onClose} testId="chat-access-dialog">
      <div className="dialog-body form-grid">
        <fieldset className="ticket-choices">
          <legend>Access</legend>
          <label className={`ticket-choice ${!restricted ? 'on' : ''}`}>
            <input type="radio" name="access" checked={!restricted} onChange={() => setRestricted(false)} data-testid="access-everyone" />
            <span className="ticket-choice-main">
              <span className="ticket-choice-subject">Everyone in the workspace</span>
            </span>
          </label>
          <label className={`ticket-choice ${restricted ? 'on' : ''}`}>
            <input type="radio" name="access" checked={restricted} onChange={() => setRestricted(true)} data-testid="access-some" />
            <span className="ticket-choice-main">
              <span className="ticket-choice-subject">Only the members ticked below</span>
              <span className="ticket-choice-meta">Admins can always see every chat. Others see it dimmed: ‘You do not have access to this chat’.</span>
            </span>
          </label>
        </fieldset>
        {restricted && (
          <ul className="access-members" aria-label="Members">
            {members.map((m) => {
              const email = m.email.toLowerCase();
              const admin = m.role === 'admin';
              const name = m.member_name?.trim() || email;
              return (
                <li key={email}>
                  <label className="check-item">
                    <input type="checkbox" checked={admin || ticked.has(email)} disabled={admin} data-testid="access-member" data-email={email} onChange={(e) => tick(email, e.target.checked)} />
                    <MemberAvatar email={email} name={name} size={24} />
                    <span>
                      {name} {admin && <span className="muted small">(admin)</span>}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        <DialogFooter error={error} onCancel={onClose} onSubmit={() => void save()} submitLabel="Save" busyLabel="Saving…" busy={busy} disabled={busy} submitTestId="access-save" />
      </div>
    </Dialog>
  );
}
