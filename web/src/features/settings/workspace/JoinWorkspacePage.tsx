/**
 * Join workspace (spec §2 screens, §4 Invite, §8): an invited user chooses Join or Decline invite.
 * Join activates the membership (POST /api/invites/{org}/join) and opens the org's /chats without
 * reloading the page; Decline deletes it, clears this browser's Chorus data and reloads.
 */
import { useState } from 'react';
import { INVITE_MESSAGES } from '#shared/member/team.schemas.ts';
import type { MeResponse } from '#shared/me.schemas.ts';
import { api } from '../../../lib/api.ts';
import { useToast } from '../../../app/toast.tsx';
import { FullScreenMessage } from '../../../app/pages/FullScreenMessage.tsx';
import '../team/team.css';

type Invite = MeResponse['invites'][number];

/** Chorus's own keys in localStorage (the org choice, UI state); the sign-in tokens are left alone. */
export function clearLocalOrgData(): void {
  try {
    for (const k of Object.keys(localStorage)) if (k.startsWith('chorus.')) localStorage.removeItem(k);
  } catch {
    /* nothing stored */
  }
}

/** Delay before the page reloads after a decline, so the toast can be read (ms). */
const RELOAD_AFTER_MS = 1000;

export function JoinWorkspacePage({ invite, onJoined, onSignOut }: { invite: Invite; onJoined: (orgId: string) => Promise<void>; onSignOut: () => void }) {
  const toast = useToast();
  const [busy, setBusy] = useState<'join' | 'decline' | null>(null);

  async function join() {
    setBusy('join');
    toast.show(INVITE_MESSAGES.joining, 'info');
    try {
      const org = await api.joinInvite(invite.org_id);
      toast.show(INVITE_MESSAGES.joined(org.org_name), 'success');
      await onJoined(org.org_id);
    } catch (e) {
      console.error('join failed', e);
      toast.show(INVITE_MESSAGES.joinFailed, 'error');
      setBusy(null);
    }
  }

  async function decline() {
    setBusy('decline');
    toast.show(INVITE_MESSAGES.declining, 'info');
    try {
      await api.declineInvite(invite.org_id);
      toast.show(INVITE_MESSAGES.declined, 'success');
      clearLocalOrgData();
      setTimeout(() => window.location.reload(), RELOAD_AFTER_MS);
    } catch (e) {
      console.error('decline failed', e);
      toast.show(INVITE_MESSAGES.declineFailed, 'error');
      setBusy(null);
    }
  }

  return (
    <div data-testid="join-workspace">
      <FullScreenMessage
        title="Join workspace"
        body={`${invite.invited_by ? `${invite.invited_by} invited you` : 'You are invited'} to join ${invite.org_name} on Chorus.`}
      >
        <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => void join()} data-testid="join-invite">
          Join
        </button>
        <button type="button" className="btn" disabled={busy !== null} onClick={() => void decline()} data-testid="decline-invite">
          Decline invite
        </button>
        <button type="button" className="btn btn-ghost" onClick={onSignOut} data-testid="sign-out">
          Sign out
        </button>
      </FullScreenMessage>
    </div>
  );
}
