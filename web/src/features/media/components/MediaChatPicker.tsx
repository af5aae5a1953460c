/**
 * The /media chat filter: a button naming the chosen chat that opens a searchable list of the
 * loaded chats (the kit's Popover and Combobox: type to narrow, Up/Down, Enter), with 'All chats'
 * first and 'Load more chats' under the list.
 */
import { useMemo, useState } from 'react';
import { chatDisplayName, chatNumber } from '../../../lib/format.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { Popover } from '../../../components/ui/Popover.tsx';
import { Combobox, type ComboboxOption } from '../../../components/ui/Combobox.tsx';

/** `value` is the chosen chat id ('' = all chats). */
export function MediaChatPicker({ value, onChange }: { value: string; onChange: (chatId: string) => void }) {
  const inbox = useInbox();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const chosen = inbox.chats.find((c) => c.chat_id === value);
  const options = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const list = inbox.chats.filter((c) => !needle || chatDisplayName(c).toLowerCase().includes(needle) || chatNumber(c.chat_id).includes(needle)).slice(0, 50);
    const all: ComboboxOption<string> = { key: '__all__', value: '', label: 'All chats' };
    return [all, ...list.map((c) => ({ key: c.chat_id, value: c.chat_id, label: chatDisplayName(c) }))];
  }, [inbox.chats, q]);
  const pick = (chatId: string) => {
    onChange(chatId);
    setOpen(false);
    setQ('');
  };
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      label="Filter by chat"
      className="popover media-chat-popover"
      trigger={
        <button type="button" className="btn media-chat-button" data-testid="media-chat">
          <span className="media-chat-label">{value ? (chosen ? chatDisplayName(chosen) : chatNumber(value)) : 'All chats'}</span>
          <span aria-hidden="true">▾</span>
        </button>
      }
    >
      <Combobox
        options={options}
        query={q}
        onQuery={setQ}
        onPick={pick}
        isSelected={(v) => v === value}
        label="Chats"
        placeholder="Search chats"
        searchLabel="Search chats"
        empty="No loaded chat matches."
        inputTestId="media-chat-search"
      />
      {options.length === 1 && q && <p className="muted small pop-empty">No loaded chat matches.</p>}
      {inbox.cursor && (
        <button type="button" className="link-btn small pop-footer" disabled={inbox.loadingMore} onClick={inbox.loadMore}>
          {inbox.loadingMore ? 'Loading chats…' : 'Load more chats'}
        </button>
      )}
    </Popover>
  );
}
