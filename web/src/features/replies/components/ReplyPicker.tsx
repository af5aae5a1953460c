/**
 * The composer's '/' quick-reply picker (issue 15 item 5). Typing '/' at the start of the message
 * opens a list of the team's and one's own replies, filtered as one types (shortcut prefix first,
 * shared/reply/reply.rules.ts `filterReplies`); arrow keys move, Enter or Tab inserts, Esc closes,
 * a click inserts. Inserting replaces the '/query' with the reply's text, its variables filled
 * (`fillVariables`: the chat's name as the member sees it, the member's name, the chat's custom
 * property values by property name), and attaches the reply's library file when it has one (fetched
 * through the media route, which checks the member may open that file's chat).
 */
import { useCallback, useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { useCaretAfterInsert } from '../../../lib/useCaretAfterInsert.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { QuickReply } from '#shared/reply/reply.schemas.ts';
import { fillVariables, filterReplies, slashQuery, variablesIn } from '#shared/reply/reply.rules.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { getConfig } from '../../../lib/config.ts';
import { chatDisplayName } from '../../../lib/format.ts';
import { useSession } from '../../../app/session.tsx';
import { replyKeys, repliesApi } from '../api/replies.ts';
import './replies.css';

/** How many replies the picker lists at once. */
const PICKER_SIZE = 8;

interface Options {
  value: string;
  setValue: (v: string) => void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  chat: Chat | null;
  setError: (e: string | null) => void;
  /** attach the reply's file to the message being written */
  onAttach: (file: File) => void;
  /** off while the composer writes a private note */
  enabled: boolean;
}

async function propertyValues(orgId: string, chat: Chat | null, qc: ReturnType<typeof useQueryClient>): Promise<Record<string, string>> {
  const values = chat?.custom_properties ?? {};
  if (!Object.keys(values).length) return {};
  const { propertiesApi, propertyKeys } = await import('../../contacts/index.ts');
  const defs = await qc.fetchQuery({ queryKey: propertyKeys.all(orgId), queryFn: () => propertiesApi.list(orgId), staleTime: 60_000 });
  const out: Record<string, string> = {};
  for (const d of defs) {
    const v = values[d.property_id];
    if (v) out[d.property_name] = d.property_value_type === 'dropdown' ? (d.property_value[v] ?? '') : v;
  }
  return out;
}

async function fetchAttachment(orgId: string, a: NonNullable<QuickReply['attachment']>): Promise<File> {
  const r = await api.mediaUrl(orgId, a.chat_id, a.unique_id);
  if (!r.url) throw new Error(r.error ?? 'the file is not downloaded yet');
  const base = getConfig().apiUrl || window.location.origin;
  const res = await fetch(/^(https?:|blob:|data:)/i.test(r.url) ? r.url : new URL(r.url, base.endsWith('/') ? base : `${base}/`).toString());
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  const name = a.filename || r.filename || `${a.message_type}`;
  return new File([blob], name, { type: a.mimetype || r.mimetype || blob.type });
}

export function useReplyPicker({ value, setValue, inputRef, chat, setError, onAttach, enabled }: Options) {
  const { org, user } = useSession();
  const qc = useQueryClient();
  const [query, setQuery] = useState<string | null>(null);
  const [index, setIndex] = useState(0);
  const listId = useId();
  const open = enabled && query !== null;
  const q = useQuery({ queryKey: replyKeys.all(org.org_id), queryFn: () => repliesApi.list(org.org_id), enabled: open, staleTime: 30_000 });
  const options = open ? filterReplies(q.data ?? [], query).slice(0, PICKER_SIZE) : [];
  // the caret after an inserted text, placed once the new text is in the input
  const { valueRef, caretAt: caretAfterPick } = useCaretAfterInsert(value, inputRef);

  /** follow the text and caret: open, narrow or close the picker */
  const sync = useCallback(
    (text: string, caret: number | null) => {
      const next = enabled && caret !== null ? slashQuery(text, caret) : null;
      setQuery((prev) => {
        if (prev !== next) setIndex(0);
        return next;
      });
    },
    [enabled],
  );

  const pick = useCallback(
    async (reply: QuickReply) => {
      const text = valueRef.current;
      const end = text.search(/\s/);
      const rest = end < 0 ? '' : text.slice(end);
      setQuery(null);
      try {
        const needsProps = variablesIn(reply.text).some((v) => v.toLowerCase().startsWith('property.'));
        const filled = fillVariables(reply.text, {
          contactName: chat ? chatDisplayName(chat) : '',
          memberName: org.member_name?.trim() || user.email,
          properties: needsProps ? await propertyValues(org.org_id, chat, qc) : {},
        });
        caretAfterPick.current = filled.length;
        setValue(filled + rest);
        if (reply.attachment) onAttach(await fetchAttachment(org.org_id, reply.attachment));
      } catch (e) {
        setError(`Could not insert the quick reply: ${errorMessage(e)}`);
      }
    },
    [chat, org, user, qc, setValue, onAttach, setError],
  );

  /** picker keys on the input; @returns true when the key was used */
  const onInputKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
      if (!open || e.nativeEvent.isComposing) return false;
      if (e.key === 'Escape') setQuery(null);
      else if (!options.length) return false;
      else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') setIndex((i) => (i + (e.key === 'ArrowDown' ? 1 : -1) + options.length) % options.length);
      else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') void pick(options[Math.min(index, options.length - 1)]!);
      else return false;
      e.preventDefault();
      e.stopPropagation();
      return true;
    },
    [open, options, index, pick],
  );

  const inputAria = open
    ? { role: 'combobox', 'aria-autocomplete': 'list' as const, 'aria-expanded': true, 'aria-controls': listId, 'aria-activedescendant': options.length ? `${listId}-${index}` : undefined }
    : {};
  return { open, options, index, setIndex, listId, sync, pick, onInputKeyDown, inputAria, loading: q.isPending, error: q.isError ? errorMessage(q.error) : null, query: query ?? '' };
}

/** The '/' picker above the input (a listbox tied to the input as its combobox). */
export function ReplyPicker({ picker }: { picker: ReturnType<typeof useReplyPicker> }) {
  const { options, index, listId, loading, error, query } = picker;
  return (
    <div className="reply-picker" data-testid="reply-picker">
      <div className="reply-picker-head">
        Quick replies <kbd>↑</kbd>
        <kbd>↓</kbd> to move, <kbd>Enter</kbd> to insert, <kbd>Esc</kbd> to close
      </div>
      {loading && <p className="reply-picker-empty">Loading quick replies…</p>}
      {error && <p className="reply-picker-empty">Quick replies could not be loaded: {error}</p>}
      {!loading && !error && !options.length && <p className="reply-picker-empty">{query ? `No quick reply matches “/${query}”.` : 'No quick replies yet. Admins add them in Settings → Quick Replies.'}</p>}
      {options.length > 0 && (
        <ul id={listId} role="listbox" aria-label="Quick replies">
          {options.map((r, i) => (
            <li
              key={r.reply_id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === index}
              className="reply-option"
              data-testid="reply-option"
              data-shortcut={r.shortcut}
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => picker.setIndex(i)}
              onClick={() => void picker.pick(r)}
            >
              <span className="reply-option-shortcut">/{r.shortcut}</span>
              <span className="reply-option-text">{r.text}</span>
              {r.attachment && <span className="reply-option-tag">{r.attachment.message_type === 'document' ? '📄 File' : '📎 ' + r.attachment.message_type}</span>}
              {r.scope === 'personal' && <span className="reply-option-tag">Only you</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
