/**
 * The custom properties section of a chat's details panel (spec §3 custom_properties; issue 15),
 * loaded lazily by the thread so the /chats bundle does not grow. Shows nothing when the org has no
 * property definitions. Saves through PUT /chats/{chat_id}/properties and puts the answer in the
 * inbox's chat cache.
 */
import { useEffect, useState } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useInbox } from '../../../app/inbox.tsx';
import { useToast } from '../../../app/toast.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { propertiesApi } from '../api/properties.ts';
import { PropertyFields, usePropertyDefs } from './PropertyFields.tsx';
import './contacts.css';

export function ChatProperties({ chat }: { chat: Chat }) {
  const { org } = useSession();
  const { upsertChat } = useInbox();
  const toast = useToast();
  const defs = usePropertyDefs(org.org_id);
  const stored = chat.custom_properties ?? {};
  const [values, setValues] = useState<Record<string, string>>(stored);
  const [busy, setBusy] = useState(false);
  const key = JSON.stringify(stored);
  useEffect(() => setValues(JSON.parse(key) as Record<string, string>), [key]);
  if (!defs.length) return null;
  const dirty = JSON.stringify(values) !== key;
  async function save() {
    setBusy(true);
    try {
      const cleared = Object.fromEntries(Object.keys(stored).filter((k) => !(k in values)).map((k) => [k, '']));
      const r = await propertiesApi.setChatValues(org.org_id, chat.chat_id, { ...cleared, ...values });
      upsertChat(r.chat);
      toast.show('Properties saved', 'success');
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="details-section chat-properties" aria-label="Properties" data-testid="chat-properties">
      <PropertyFields defs={defs} values={values} onChange={setValues} disabled={busy} />
      {dirty && (
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void save()} data-testid="chat-properties-save">
          {busy ? 'Saving…' : 'Save properties'}
        </button>
      )}
    </section>
  );
}
