/**
 * The "send a WhatsApp template" rule action's fields (issue 16/17): a template of the default
 * Cloud API number (synced on Settings › Message templates) and one input per variable. Values may
 * use the rule variables (`{{contact.name}}`), rendered when the action runs; the server checks the
 * template and every variable again when the rule runs (the rules log shows a refusal).
 */
import { useQuery } from '@tanstack/react-query';
import { templateVariables } from '#shared/template/template.rules.ts';
import type { Action } from '#shared/rules/rule.schemas.ts';
import { useSession } from '../../app/session.tsx';
import { templateKeys, templatesApi } from '../templates/index.ts';

type TemplateAction = Extract<Action, { type: 'send_template' }>;

export function TemplateActionFields({ action, index, onChange }: { action: TemplateAction; index: number; onChange: (a: Action) => void }) {
  const { org } = useSession();
  const list = useQuery({ queryKey: templateKeys.list(org.org_id, null, 'APPROVED'), queryFn: () => templatesApi.list(org.org_id, null, 'APPROVED') });
  const templates = list.data?.templates ?? [];
  const key = `${action.name}|${action.language}`;
  const current = templates.find((t) => `${t.name}|${t.language}` === key) ?? null;
  const vars = current ? templateVariables(current).filter((v) => v.kind === 'text') : [];
  if (list.isPending) return <span className="muted small">Loading templates…</span>;
  if (list.isError) return <span className="small error-text">Templates could not be loaded.</span>;
  if (templates.length === 0) return <span className="muted small">No approved templates yet: sync them on Settings › Message templates.</span>;
  return (
    <>
      <select
        aria-label="Template"
        value={current ? key : ''}
        onChange={(e) => {
          const [name, language] = e.target.value.split('|');
          onChange({ ...action, name: name ?? '', language: language ?? 'en_US', values: {} });
        }}
        data-testid={`rule-action-template-${index}`}
      >
        {!current && <option value="">choose a template</option>}
        {templates.map((t) => (
          <option key={`${t.name}|${t.language}`} value={`${t.name}|${t.language}`}>
            {t.name} ({t.language})
          </option>
        ))}
      </select>
      {vars.map((v) => (
        <input
          key={v.key}
          aria-label={`Template variable ${v.key}`}
          placeholder={v.example ? `${v.key}: ${v.example}` : v.key}
          className="rule-text"
          value={action.values?.[v.key] ?? ''}
          onChange={(e) => onChange({ ...action, values: { ...(action.values ?? {}), [v.key]: e.target.value } })}
          data-testid={`rule-action-template-value-${index}-${v.key}`}
        />
      ))}
    </>
  );
}
