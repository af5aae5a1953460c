/**
 * /list's action bar for the selection: Assign, Label, Unlabel, Property (set a dropdown option or
 * clear a property; issue 15), Close / Reopen, Archive / Unarchive, Mute / Unmute, Clear; actions that cannot be undone here ask first (`confirm`).
 */
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { BulkAction, CreateBulkJobRequest } from '#shared/bulk/bulk-job.schemas.ts';
import type { InboxState } from '#shared/chat/chat-state.rules.ts';
import type { OrgMember } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { memberLabel } from '../../tasks/index.ts';
import { Toolbar, ToolbarButton } from '../../../components/ui/Toolbar.tsx';
import { ActionMenu, type MenuChoice } from './ActionMenu.tsx';
import { usePropertyDefinitions } from '../../chats/index.ts';

export interface ListBulkBarProps {
  /** what the selection line says ('3 selected', 'All 1,200 selected') */
  selectedText: string;
  confirm: { action: BulkAction; verb: string; title: string } | null;
  setConfirm: (c: null) => void;
  start: (action: BulkAction, params?: CreateBulkJobRequest['params']) => void;
  ask: (action: BulkAction) => void;
  onClear: () => void;
  busy: boolean;
  members: OrgMember[];
  labels: ChatLabel[];
  folder: InboxState;
}

/** /list's bulk-action bar (the kit's {@link Toolbar}): the selection line, then the actions or the confirm step. */
export function ListBulkBar({ selectedText, confirm, setConfirm, start, ask, onClear, busy, members, labels, folder }: ListBulkBarProps) {
  const { user, org } = useSession();
  const defs = usePropertyDefinitions(org.org_id);
  // 'set|<property>|<option>' for each dropdown option, 'clear|<property>' for each property (text values: PUT per chat or the API's set_property)
  const propertyChoices: MenuChoice[] = [
    ...defs.flatMap((d) => (d.property_value_type === 'dropdown' ? Object.entries(d.property_value).map(([id, l]) => ({ key: `set|${d.property_id}|${id}`, label: `${d.property_name}: ${l}` })) : [])),
    ...defs.map((d) => ({ key: `clear|${d.property_id}`, label: `Clear ${d.property_name}` })),
  ];
  const pickProperty = (key: string) => {
    const [kind, property_id, value] = key.split('|');
    if (kind === 'set') start('set_property', { property_id, property_value: value });
    else start('clear_property', { property_id });
  };
  return (
    <Toolbar label="Bulk actions" className="bulk-bar" testId="bulk-bar">
      <span className="bulk-selected" data-testid="bulk-selected">
        {selectedText}
      </span>
      {confirm ? (
        <span className="bulk-confirm" role="alertdialog" aria-label={confirm.title} data-testid="bulk-confirm">
          <span>{confirm.title}</span>
          <ToolbarButton className="btn btn-primary bulk-btn" autoFocus onClick={() => start(confirm.action)} data-testid="bulk-confirm-yes">
            {confirm.verb}
          </ToolbarButton>
          <ToolbarButton className="btn bulk-btn" onClick={() => setConfirm(null)}>
            Cancel
          </ToolbarButton>
        </span>
      ) : (
        <span className="bulk-actions">
          <ActionMenu
            label="Assign"
            testId="bulk-assign"
            disabled={busy}
            searchable={members.length > 8}
            choices={[{ key: '', label: 'Unassigned' }, ...members.map((m) => ({ key: m.email, label: memberLabel(m.email, members, user.email), hint: m.member_name ? m.email : undefined }))]}
            onPick={(email) => start('assign', { assigned_to: email || null })}
          />
          <ActionMenu label="Label" testId="bulk-label" disabled={busy || labels.length === 0} searchable={labels.length > 8} choices={labels.map((l) => ({ key: l.label_id, label: l.name, color: l.color }))} onPick={(id) => start('label', { label_ids: [id] })} />
          <ActionMenu label="Unlabel" testId="bulk-unlabel" disabled={busy || labels.length === 0} searchable={labels.length > 8} choices={labels.map((l) => ({ key: l.label_id, label: l.name, color: l.color }))} onPick={(id) => start('unlabel', { label_ids: [id] })} />
          {defs.length > 0 && <ActionMenu label="Property" testId="bulk-property" disabled={busy} searchable={propertyChoices.length > 8} choices={propertyChoices} onPick={pickProperty} />}
          {folder === 'closed' ? (
            <ToolbarButton className="btn bulk-btn" disabled={busy} onClick={() => ask('reopen')} data-testid="bulk-reopen">
              Reopen
            </ToolbarButton>
          ) : (
            <ToolbarButton className="btn bulk-btn" disabled={busy} onClick={() => ask('close')} data-testid="bulk-close">
              Close
            </ToolbarButton>
          )}
          {folder === 'archived' ? (
            <ToolbarButton className="btn bulk-btn" disabled={busy} onClick={() => ask('unarchive')} data-testid="bulk-unarchive">
              Unarchive
            </ToolbarButton>
          ) : (
            <ToolbarButton className="btn bulk-btn" disabled={busy} onClick={() => ask('archive')} data-testid="bulk-archive">
              Archive
            </ToolbarButton>
          )}
          <ActionMenu
            label="Mute"
            testId="bulk-mute"
            disabled={busy}
            choices={[
              { key: 'mute', label: 'Mute' },
              { key: 'unmute', label: 'Unmute' },
            ]}
            onPick={(k) => ask(k as BulkAction)}
          />
          <ToolbarButton className="link-btn small" onClick={onClear} data-testid="bulk-clear">
            Clear
          </ToolbarButton>
        </span>
      )}
    </Toolbar>
  );
}
