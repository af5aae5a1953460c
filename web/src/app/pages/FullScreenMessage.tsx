/** A centred full-screen notice (boot, loading, blocking errors) with optional actions. */
import type { ReactNode } from 'react';

export function FullScreenMessage({ title, body, busy, children }: { title: string; body?: string; busy?: boolean; children?: ReactNode }) {
  return (
    <div className="fullscreen">
      <div className="fullscreen-card" role={busy ? 'status' : undefined} aria-busy={busy || undefined}>
        <div className="brand-mark" aria-hidden="true">
          C
        </div>
        <h1>{title}</h1>
        {busy && <div className="spinner" aria-hidden="true" />}
        {body && <p>{body}</p>}
        {children && <div className="fullscreen-actions">{children}</div>}
      </div>
    </div>
  );
}
