/**
 * /settings/team (admins, spec §4 Invite, §6): the members and pending invites of the workspace
 * (name, email, role, status), an invite-by-email form, role changes and removal. The API enforces
 * every rule (members 403; not yourself, not the last admin: 400 with the reason shown as a toast).
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { MemberRole, TeamMember } from '#shared/member/team.schemas.ts';
import { InviteMemberInput } from '#shared/member/team.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import './team.css';
import { SettingsTitle } from '../components/SettingsTitle.tsx';

export function TeamPage() {
  const { org, user } = useSession();
  const toast = useToast();
  const [members, setMembers] = useState<TeamMember[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('member');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setError(null);
    try {
      setMembers(await api.team(org.org_id));
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [org.org_id]);
  useEffect(() => {
    void load();
  }, [load]);

  async function invite(e: FormEvent) {
    e.preventDefault();
    const parsed = InviteMemberInput.safeParse({ email, role });
    if (!parsed.success) return toast.show(parsed.error.issues[0].message, 'error');
    setBusy(true);
    try {
      const m = await api.inviteMember(org.org_id, parsed.data);
      setMembers((prev) => [...(prev ?? []).filter((x) => x.email !== m.email), m]);
      setEmail('');
      toast.show(`Invite sent to ${m.email}`, 'success');
    } catch (err) {
      toast.show(errorMessage(err), 'error');
    } finally {
      setBusy(false);
    }
  }

  async function changeRole(m: TeamMember, next: MemberRole) {
    setMembers((prev) => prev?.map((x) => (x.email === m.email ? { ...x, role: next } : x)) ?? null);
    try {
      const updated = await api.setMemberRole(org.org_id, m.email, next);
      setMembers((prev) => prev?.map((x) => (x.email === m.email ? updated : x)) ?? null);
      toast.show(`${m.member_name || m.email} is now ${next === 'admin' ? 'an admin' : 'a member'}`, 'success');
    } catch (err) {
      setMembers((prev) => prev?.map((x) => (x.email === m.email ? m : x)) ?? null);
      toast.show(errorMessage(err), 'error');
    }
  }

  async function remove(m: TeamMember) {
    const what = m.status === 'invited' ? `Withdraw the invite to ${m.email}?` : `Remove ${m.member_name || m.email} from ${org.org_name}?`;
    if (!window.confirm(what)) return;
    try {
      await api.removeMember(org.org_id, m.email);
      setMembers((prev) => prev?.filter((x) => x.email !== m.email) ?? null);
      toast.show(m.status === 'invited' ? 'Invite withdrawn' : 'Member removed', 'success');
    } catch (err) {
      toast.show(errorMessage(err), 'error');
    }
  }

  return (
    <div className="page" data-testid="team-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Team" />
      </header>
      <div className="page-body settings-form">
        <section className="settings-section" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite a teammate</h2>
          <form className="invite-form" onSubmit={(e) => void invite(e)} noValidate>
            <label className="field">
              <span>Email</span>
              <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@company.com" autoComplete="off" data-testid="invite-email" />
            </label>
            <label className="field-inline">
              <span className="visually-hidden">Role</span>
              <select value={role} onChange={(e) => setRole(e.target.value as MemberRole)} aria-label="Role of the invitee" data-testid="invite-role">
                <option value="member">Member</option>
                <option value="admin">Admin</option>
              </select>
            </label>
            <button type="submit" className="btn btn-primary" disabled={busy || !email.trim()} data-testid="invite-submit">
              {busy ? 'Inviting…' : 'Invite'}
            </button>
          </form>
          <p className="muted small">They sign in with this email and choose Join workspace.</p>
        </section>

        <section className="settings-section" aria-labelledby="members-title">
          <h2 id="members-title">Members</h2>
          {!members && !error && <p className="muted">Loading members…</p>}
          {error && (
            <div className="inline-state" role="alert">
              <span>Could not load the team: {error}</span>
              <button type="button" className="link-btn" onClick={() => void load()}>
                Retry
              </button>
            </div>
          )}
          {members && (
            <table className="team-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.map((m) => {
                  const self = m.email === user.email;
                  return (
                    <tr key={m.email} data-testid="team-row" data-email={m.email} data-status={m.status}>
                      <td>
                        <div>{m.member_name || m.email.split('@')[0]}{self ? ' (you)' : ''}</div>
                        <div className="member-email">{m.email}</div>
                      </td>
                      <td>
                        <select value={m.role} aria-label={`Role of ${m.email}`} onChange={(e) => void changeRole(m, e.target.value as MemberRole)} data-testid="team-role">
                          <option value="member">Member</option>
                          <option value="admin">Admin</option>
                        </select>
                      </td>
                      <td>
                        <span className={`status-tag status-${m.status}`}>{m.status === 'invited' ? 'Invited' : 'Active'}</span>
                      </td>
                      <td>
                        {!self && (
                          <button type="button" className="link-btn danger" onClick={() => void remove(m)} data-testid="team-remove">
                            {m.status === 'invited' ? 'Withdraw invite' : 'Remove'}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </div>
  );
}
