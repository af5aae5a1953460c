/**
 * The composer when the 24-hour customer service window of a Cloud API chat is closed (issue 16;
 * Meta A.8): free text is off with a plain explanation, and an approved template with its variables
 * and a live preview is offered instead. Sent through POST …/chats/{chat_id}/templates; the
 * message reaches the thread through `message.sent` like any other.
 */
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../app/session.tsx';
import { errorMessage } from '../../lib/api.ts';
import { templateKeys, templatesApi } from './api.ts';
import { TemplateForm } from './TemplateForm.tsx';

export function TemplateComposer({ chatId, phoneId }: { chatId: string; phoneId: string }) {
  const { org } = useSession();
  const q = useQuery({ queryKey: templateKeys.list(org.org_id, phoneId, 'APPROVED'), queryFn: () => templatesApi.list(org.org_id, phoneId, 'APPROVED'), staleTime: 60_000 });
  return (
    <div className="tpl-composer" data-testid="template-composer">
      <p className="tpl-explain">
        <strong>The 24-hour window is closed.</strong> The customer has not written in the last 24 hours, so WhatsApp only accepts an approved template until they write again.
      </p>
      {q.isPending && <p className="tpl-empty">Loading templates…</p>}
      {q.isError && <p className="tpl-error">Templates could not be loaded: {errorMessage(q.error)}</p>}
      {q.data && (
        <TemplateForm
          idPrefix={`tpl-${chatId}`}
          templates={q.data.templates}
          onSubmit={async (t, values) => {
            try {
              await templatesApi.send(org.org_id, chatId, { name: t.name, language: t.language, values });
            } catch (e) {
              throw new Error(`Template not sent: ${errorMessage(e)}`);
            }
          }}
        />
      )}
    </div>
  );
}
