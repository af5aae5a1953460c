/**
 * The small pickers of the chat header's popovers: the org's labels as checkboxes (with 'Manage
 * labels' for admins) and the chat's org numbers to reply from. The assignee picker is the kit's
 * MemberPicker.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useInbox } from '../../../app/inbox.tsx';
import { formatPhone } from '../../../lib/format.ts';

/**
 * The org's labels as checkboxes; ticking one adds it to the chat at once. A tick shows at once
 * and holds until the chat carries it (a list refetch or an older push in between cannot untick
 * it); `onToggle` resolving false (the write failed) drops it.
 */
export function LabelPicker({ selected, onToggle, isAdmin }: { selected: string[]; onToggle: (labelId: string, on: boolean) => Promise<boolean>; isAdmin: boolean }) {
  const { labels } = useInbox();
  const navigate = useNavigate();
  const [pending, setPending] = useState<Record<string, boolean>>({});
  useEffect(() => {
    setPending((p) => {
      const settled = Object.keys(p).filter((id) => selected.includes(id) === p[id]);
      if (settled.length === 0) return p;
      const next = { ...p };
      for (const id of settled) delete next[id];
      return next;
    });
  }, [selected]);
  const toggle = (labelId: string, on: boolean) => {
    setPending((p) => ({ ...p, [labelId]: on }));
    void onToggle(labelId, on).then((ok) => {
      if (!ok)
        setPending((p) => {
          const next = { ...p };
          delete next[labelId];
          return next;
        });
    });
  };
  return (
    <div className="label-pick">
      {labels.length === 0 && <p className="muted small pop-empty">No labels yet.{isAdmin ? ' Create them in Settings › Labels.' : ' An admin can create them.'}</p>}
      <ul className="pop-list" role="list">
        {labels.map((l) => {
          const on = pending[l.label_id] ?? selected.includes(l.label_id);
          return (
            <li key={l.label_id}>
              <label className="pop-item check-item" data-testid="label-option" data-label-id={l.label_id}>
                <input type="checkbox" checked={on} onChange={(e) => toggle(l.label_id, e.target.checked)} />
                <span className="label-dot" style={{ background: l.color }} aria-hidden="true" />
                <span className="pop-item-main">{l.name}</span>
              </label>
            </li>
          );
        })}
      </ul>
      {isAdmin && (
        <button type="button" className="link-btn small pop-footer" onClick={() => navigate('/settings/labels')}>
          Manage labels
        </button>
      )}
    </div>
  );
}

/** The chat's org numbers (spec §4 'Reply from'); Enter or a click picks. */
export function PhonePicker({ phones, value, onPick }: { phones: string[]; value: string; onPick: (phone: string) => void }) {
  return (
    <ul className="pop-list" role="listbox" aria-label="Reply from">
      {phones.map((p) => (
        <li key={p} role="option" aria-selected={p === value} className={`pop-item ${p === value ? 'current' : ''}`} data-testid="phone-option" onClick={() => onPick(p)} tabIndex={0} onKeyDown={(e) => e.key === 'Enter' && onPick(p)}>
          <span className="pop-item-main">{formatPhone(p)}</span>
          {p === value && (
            <span className="pop-check" aria-hidden="true">
              ✓
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
