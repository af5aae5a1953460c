/**
 * The 'logged in in more than one session' blocking screen (spec §2 screens, §4 Session): shown
 * while another browser or device of the same user is the active session (app/activeSession.ts).
 * Switch here claims the session over the socket; the other one then shows this screen. Log out
 * signs this browser out instead (spec §4 sign-out).
 */
import { useEffect, useRef, useState } from 'react';
import { claimHere } from '../activeSession.ts';
import { useSession } from '../session.tsx';
import { format, isToday } from 'date-fns';
import './sessionReplaced.css';

export const SESSION_REPLACED_TITLE = 'You are logged in in more than one session';

export function SessionReplacedScreen({ claimedAt }: { claimedAt: number }) {
  const { signOut } = useSession();
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => button.current?.focus(), []);

  function switchHere() {
    setProblem(null);
    if (!claimHere()) {
      setProblem('Chorus is not connected right now. Check your connection; Switch here works again as soon as it reconnects.');
      return;
    }
    setPending(true);
  }

  // the answer (session.active) unmounts this screen; if it does not come, let the person retry
  useEffect(() => {
    if (!pending) return;
    const t = setTimeout(() => {
      setPending(false);
      setProblem('No answer from Chorus yet. Please try again.');
    }, 10_000);
    return () => clearTimeout(t);
  }, [pending]);

  return (
    <div className="fullscreen session-replaced" role="alertdialog" aria-modal="true" aria-labelledby="session-replaced-title" aria-describedby="session-replaced-body" data-testid="session-replaced">
      <div className="fullscreen-card">
        <div className="brand-mark" aria-hidden="true">
          C
        </div>
        <h1 id="session-replaced-title">{SESSION_REPLACED_TITLE}</h1>
        <div id="session-replaced-body">
          <p>
            Chorus was opened with your account in another browser or on another device{claimedAt ? ` ${isToday(claimedAt) ? `at ${format(claimedAt, 'HH:mm')}` : `on ${format(claimedAt, 'd MMM, HH:mm')}`}` : ''}. Only one session can be
            active at a time, so this one is paused: it does not show new messages or let you reply.
          </p>
          <p>Use Switch here to continue in this window. The other session will be paused instead.</p>
        </div>
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        <div className="fullscreen-actions">
          <button ref={button} type="button" className="btn btn-primary" onClick={switchHere} disabled={pending} data-testid="switch-here">
            {pending ? 'Switching…' : 'Switch here'}
          </button>
          <button type="button" className="btn" onClick={() => void signOut()} data-testid="session-sign-out">
            Log out
          </button>
        </div>
      </div>
    </div>
  );
}
