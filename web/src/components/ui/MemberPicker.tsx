/**
 * The one member picker (chat assignee, task assignee): a {@link Combobox} of the members given as
 * props, matched by name or email (case-insensitive), with a "none" choice first ('Unassign',
 * 'Unassigned') and the signed-in member marked "(me)". {@link MemberSelect} puts it behind a
 * button in a popover, for forms.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { matchesMember } from '#shared/task/task.rules.ts';
import { Combobox, type ComboboxOption } from './Combobox.tsx';
import { Popover } from './Popover.tsx';

/** What the picker needs of a member (GET /members). */
export interface PickerMember {
  email: string;
  member_name?: string | null;
  is_online?: boolean;
}

interface PickerProps {
  members: PickerMember[];
  /** the chosen member's email, or null for none */
  value: string | null;
  /** the signed-in member's email */
  me: string;
  onPick: (email: string | null) => void;
  /** the "none" option's words; left out when null */
  noneLabel: string | null;
  /** data-testid prefix: `${p}-search`, `${p}-option`, `${p}-status` */
  testIdPrefix: string;
  /** an avatar for a member */
  avatar?: (email: string, name: string) => ReactNode;
  /** show each member's online dot (spec §4 User status) */
  showStatus?: boolean;
  label?: string;
}

const nameOf = (m: PickerMember): string => m.member_name?.trim() || m.email;

/** The search box and list of members. */
export function MemberPicker({ members, value, me, onPick, noneLabel, testIdPrefix, avatar, showStatus = false, label = 'Members' }: PickerProps) {
  const [q, setQ] = useState('');
  const options = useMemo(() => {
    const out: ComboboxOption<string | null>[] = [];
    if (noneLabel && matchesMember({ email: '', member_name: noneLabel }, q)) {
      out.push({ key: '__none__', value: null, label: noneLabel, leading: avatar ? <span className="pop-none" aria-hidden="true">–</span> : undefined, data: { 'data-email': '' } });
    }
    for (const m of members) {
      if (!matchesMember(m, q)) continue;
      const name = nameOf(m);
      const online = m.is_online !== false;
      out.push({
        key: m.email,
        value: m.email,
        label: (
          <>
            {m.email.toLowerCase() === me.toLowerCase() ? `${name} (me)` : name}
            {showStatus && (
              <span className={`status-dot assign-status ${online ? 'online' : ''}`} data-testid={`${testIdPrefix}-status`} data-online={online} title={online ? 'Online' : 'Offline'}>
                <span className="visually-hidden">{online ? ', online' : ', offline'}</span>
              </span>
            )}
          </>
        ),
        sub: name === m.email ? undefined : m.email,
        leading: avatar?.(m.email, name),
        data: { 'data-email': m.email },
      });
    }
    return out;
  }, [members, q, me, noneLabel, avatar, showStatus, testIdPrefix]);
  return (
    <Combobox
      options={options}
      query={q}
      onQuery={setQ}
      onPick={onPick}
      isSelected={(v) => (v ?? null) === (value ?? null) && (v !== null || !!noneLabel)}
      label={label}
      placeholder="Search name or email"
      searchLabel="Search members by name or email"
      empty={members.length ? (q ? `No member matches “${q}”` : 'No member matches') : 'Loading members…'}
      inputTestId={`${testIdPrefix}-search`}
      optionTestId={`${testIdPrefix}-option`}
      className="member-picker"
    />
  );
}

/**
 * A form field: a button showing the chosen member that opens the {@link MemberPicker} in a popover.
 * `testId` goes on the button (with `data-value`, the chosen email).
 */
export function MemberSelect({
  buttonText,
  testId,
  label,
  invalid,
  disabled,
  ...picker
}: Omit<PickerProps, 'onPick'> & { onChange: (email: string | null) => void; buttonText: string; testId: string; invalid?: boolean; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const { onChange, ...rest } = picker;
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      label={label ?? 'Members'}
      className="popover member-popover"
      trigger={
        <button type="button" className={`select-btn ${invalid ? 'invalid' : ''}`} data-testid={testId} data-value={picker.value ?? ''} aria-label={`${label ?? 'Member'}: ${buttonText}`} disabled={disabled}>
          <span className="select-btn-text">{buttonText}</span>
          <span aria-hidden="true" className="select-caret">
            ▾
          </span>
        </button>
      }
    >
      <MemberPicker
        {...rest}
        label={label}
        onPick={(email) => {
          setOpen(false);
          if (email !== picker.value) onChange(email);
        }}
      />
    </Popover>
  );
}
