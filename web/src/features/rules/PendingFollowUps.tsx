/**
 * A chat's pending follow-ups and delayed rule actions (issue 17 §5), shown above the composer
 * with a cancel button. Refreshed when the thread changes (`version`: e.g. its message count) —
 * a customer reply cancels them on the server — and every 30 s.
 */
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api.ts';
import { ruleKeys, rulesApi } from './api.ts';
import './rules.css';

export function PendingFollowUps({ orgId, chatId, version }: { orgId: string; chatId: string; version: number }) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ruleKeys.pending(orgId, chatId), queryFn: () => rulesApi.pending(orgId, chatId), refetchInterval: 30_000, retry: false });
  useEffect(() => {
    const t = setTimeout(() => void qc.invalidateQueries({ queryKey: ruleKeys.pending(orgId, chatId) }), 1500);
    return () => clearTimeout(t);
  }, [qc, orgId, chatId, version]);
  const cancel = useMutation({ mutationFn: (key: string) => rulesApi.cancelPending(orgId, chatId, key), onSettled: () => void qc.invalidateQueries({ queryKey: ruleKeys.pending(orgId, chatId) }) });
  if (!q.data?.length) return null;
  return (
    <ul className="pending-followups" data-testid="pending-followups" aria-label="Pending automations">
      {q.data.map((p) => (
        <li key={p.key} className="pending-followup">
          <span className="pending-followup-text">
            ⏱ {p.summary} · <span className="muted">{p.rule_name}, {new Date(p.due_at).toLocaleString()}</span>
          </span>
          <button type="button" className="link-btn" onClick={() => cancel.mutate(p.key)} disabled={cancel.isPending} data-testid="pending-cancel">
            Cancel
          </button>
        </li>
      ))}
      {cancel.isError && <li role="alert">{errorMessage(cancel.error)}</li>}
    </ul>
  );
}
