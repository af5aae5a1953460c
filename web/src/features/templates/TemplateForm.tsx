/**
 * Pick a template, fill its variables, see the live preview (issue 16). Used by the composer when
 * the 24-hour window is closed and by the templates view. A native select and labelled inputs: works
 * with the keyboard and on a phone. The server checks the values again (400 with the field).
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { fillTemplate, templateValueProblems, templateVariables } from '#shared/template/template.rules.ts';
import type { TemplateValues, TemplateView } from '#shared/template/template.schemas.ts';
import './templates.css';

const keyOf = (t: Pick<TemplateView, 'name' | 'language'>) => `${t.name}|${t.language}`;

/** A template's preview bubble: header (or media placeholder), body, footer and buttons. */
export function TemplatePreviewCard({ template, values }: { template: TemplateView; values: TemplateValues }) {
  const p = fillTemplate(template, values);
  return (
    <div className="tpl-preview" data-testid="template-preview" aria-label="Preview">
      {p.header_media && <div className="tpl-preview-media">{p.header_media.link ? `${p.header_media.kind}: ${p.header_media.link}` : `${p.header_media.kind} header`}</div>}
      {p.header && <div className="tpl-preview-header">{p.header}</div>}
      <div className="tpl-preview-body">{p.body}</div>
      {p.footer && <div className="tpl-preview-footer">{p.footer}</div>}
      {p.buttons.length > 0 && (
        <div className="tpl-preview-buttons">
          {p.buttons.map((b, i) => (
            <span key={i} className="tpl-preview-button" title={b.url ?? b.phone_number ?? undefined}>
              {b.text}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

export interface TemplateFormProps {
  templates: TemplateView[];
  /** send / save; throw to show the error */
  onSubmit?: (t: TemplateView, values: TemplateValues) => Promise<void>;
  submitLabel?: string;
  /** start with this template selected */
  initial?: { name: string; language: string } | null;
  /** report the current choice (e.g. a schedule form keeps it) */
  onChange?: (t: TemplateView | null, values: TemplateValues) => void;
  idPrefix?: string;
}

export function TemplateForm({ templates, onSubmit, submitLabel = 'Send template', initial, onChange, idPrefix = 'tpl' }: TemplateFormProps) {
  const approved = useMemo(() => templates.filter((t) => t.status === 'APPROVED'), [templates]);
  const [selected, setSelected] = useState<string>(() => (initial ? keyOf(initial) : approved[0] ? keyOf(approved[0]) : ''));
  const [values, setValues] = useState<TemplateValues>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const template = approved.find((t) => keyOf(t) === selected) ?? null;
  const vars = template ? templateVariables(template) : [];
  const problems = template ? templateValueProblems(template, values) : [];

  const set = (next: TemplateValues) => setValues(next);
  // report the current choice (the initial selection too)
  useEffect(() => {
    onChange?.(template, values);
  }, [template, values]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!template || !onSubmit || problems.length) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(template, values);
      set({});
      setTouched(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  if (!approved.length) {
    return (
      <p className="tpl-empty" data-testid="template-empty">
        No approved templates for this number yet. An admin can sync them on Settings → Phones → Message templates.
      </p>
    );
  }
  return (
    <form className="tpl-form" onSubmit={submit} data-testid="template-form">
      <label className="tpl-field">
        <span>Template</span>
        <select
          data-testid="template-select"
          value={selected}
          onChange={(e) => {
            setSelected(e.target.value);
            setTouched(false);
            set({});
          }}
        >
          {approved.map((t) => (
            <option key={keyOf(t)} value={keyOf(t)}>
              {t.name} · {t.language} · {t.category.toLowerCase()}
            </option>
          ))}
        </select>
      </label>
      {vars.length > 0 && (
        <div className="tpl-vars">
          {vars.map((v) => {
            const problem = touched ? problems.find((p) => p.field === `values.${v.key}`) : undefined;
            const id = `${idPrefix}-${v.key}`;
            return (
              <label key={v.key} className="tpl-field" htmlFor={id}>
                <span>{v.label}</span>
                <input
                  id={id}
                  data-testid={`template-var-${v.key}`}
                  value={typeof values[v.key] === 'string' ? (values[v.key] as string) : ''}
                  placeholder={v.kind === 'text' ? (v.example ?? '') : 'https://…'}
                  inputMode={v.kind === 'text' ? undefined : 'url'}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-err` : undefined}
                  onChange={(e) => set({ ...values, [v.key]: e.target.value })}
                />
                {problem && (
                  <span className="tpl-error" id={`${id}-err`}>
                    {problem.reason}
                  </span>
                )}
              </label>
            );
          })}
        </div>
      )}
      {template && <TemplatePreviewCard template={template} values={values} />}
      {error && (
        <p className="tpl-error" role="alert" data-testid="template-error">
          {error}
        </p>
      )}
      {onSubmit && (
        <div className="tpl-actions">
          <button type="submit" className="btn btn-primary" disabled={busy || !template} data-testid="template-send">
            {busy ? 'Sending…' : submitLabel}
          </button>
        </div>
      )}
    </form>
  );
}
