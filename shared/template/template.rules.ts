import { SERVICE_WINDOW_MS } from '../chat/chat.rules.ts';
import type { SendTarget } from '../chat/send-target.rules.ts';
import { AppError } from '../errors.ts';
import type { MetaTemplate, TemplateMediaValue, TemplateValues, WindowState } from './template.schemas.ts';
import { TemplateMediaValue as MediaValueSchema } from './template.schemas.ts';

/**
 * Pure template rules (issue 16 item 1): which variables a template has, the preview text with
 * values filled in, and the exact Cloud API send body (Meta "Send message templates":
 * `{ messaging_product, recipient_type, to | recipient, type: 'template', template: { name, language: { code }, components } }`,
 * whatsapp-protocols.md A.6), plus the 24-hour customer service window (A.8).
 * Tested beside this file.
 */

/** The parts of a template these rules read (a stored TemplateView or Meta's row). */
export type TemplateLike = Pick<MetaTemplate, 'name' | 'language' | 'components'> & { status?: string; parameter_format?: 'POSITIONAL' | 'NAMED' };

/** One variable of a template, keyed as TemplateValues expects it. */
export interface TemplateVariable {
  /** 'header.1', 'header.media', 'body.2', 'body.first_name', 'button.1.1' */
  key: string;
  component: 'header' | 'body' | 'button';
  /** '1', '2' (positional) or the parameter name (named); 'media' for a media header */
  name: string;
  /** text, or the media kind of a media header */
  kind: 'text' | 'image' | 'video' | 'document';
  /** button's 0-based position among the template's buttons (button variables only) */
  button_index?: number;
  /** Meta's example value, when the template has one */
  example: string | null;
  /** a short label for forms: "Body {{1}}", "Header image", "Button “Shop” URL {{1}}" */
  label: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** Distinct placeholder names of a text in send order: positional ones by number, named ones by first appearance. */
export function placeholders(text: string | undefined): string[] {
  if (!text) return [];
  const seen: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (!seen.includes(m[1])) seen.push(m[1]);
  return seen.every((n) => /^\d+$/.test(n)) ? seen.sort((a, b) => Number(a) - Number(b)) : seen;
}

function exampleFor(list: string[] | undefined, named: Array<{ param_name: string; example: string }> | undefined, name: string): string | null {
  if (/^\d+$/.test(name)) return list?.[Number(name) - 1] ?? null;
  return named?.find((p) => p.param_name === name)?.example ?? null;
}

/**
 * The variables of a template, per component: a text header's `{{n}}`, a media header's file
 * (`header.media`), the body's `{{n}}`, and each URL button's suffix variable (`button.<index>.1`).
 * Quick-reply and phone buttons take no value.
 */
export function templateVariables(template: TemplateLike): TemplateVariable[] {
  const out: TemplateVariable[] = [];
  for (const c of template.components) {
    if (c.type === 'HEADER') {
      if (c.format === 'TEXT') {
        for (const n of placeholders(c.text)) {
          out.push({ key: `header.${n}`, component: 'header', name: n, kind: 'text', example: exampleFor(c.example?.header_text, c.example?.header_text_named_params, n), label: `Header {{${n}}}` });
        }
      } else if (c.format === 'IMAGE' || c.format === 'VIDEO' || c.format === 'DOCUMENT') {
        const kind = c.format.toLowerCase() as 'image' | 'video' | 'document';
        out.push({ key: 'header.media', component: 'header', name: 'media', kind, example: null, label: `Header ${kind} (link)` });
      }
    } else if (c.type === 'BODY') {
      for (const n of placeholders(c.text)) {
        out.push({ key: `body.${n}`, component: 'body', name: n, kind: 'text', example: exampleFor(c.example?.body_text?.[0], c.example?.body_text_named_params, n), label: `Body {{${n}}}` });
      }
    } else if (c.type === 'BUTTONS') {
      c.buttons.forEach((b, i) => {
        if (b.type !== 'URL') return;
        const url = (b as { url: string }).url;
        const ex = (b as { example?: string[] }).example?.[0];
        const prefix = url.split('{{')[0];
        for (const n of placeholders(url)) {
          out.push({
            key: `button.${i}.${n}`,
            component: 'button',
            name: n,
            kind: 'text',
            button_index: i,
            example: ex && ex.startsWith(prefix) ? ex.slice(prefix.length) : (ex ?? null),
            label: `Button “${b.text ?? ''}” link {{${n}}}`,
          });
        }
      });
    }
  }
  return out;
}

/** One problem with a value, as the API reports it (`details: [{ field, reason }]`). */
export interface ValueProblem {
  field: string;
  reason: string;
}

function textOf(v: TemplateValues[string] | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A media header value as `{ link } | { id }`: a plain string is read as a link. */
export function mediaOf(v: TemplateValues[string] | undefined): TemplateMediaValue | undefined {
  if (v == null) return undefined;
  const parsed = MediaValueSchema.safeParse(typeof v === 'string' ? { link: v.trim() } : v);
  return parsed.success ? parsed.data : undefined;
}

/**
 * What is wrong with `values` for `template` (empty = fine): a missing or blank variable, a text
 * over 1024 characters (body) / 60 (header), newlines, tabs or more than 4 spaces in a header or
 * button value (Meta's parameter rules), a media header without an http(s) link or media id, and a
 * template that is not APPROVED. Fields are `values.<key>` (and `template` for the status).
 * Keys that are not variables of the template are ignored (a CSV may carry more columns).
 */
export function templateValueProblems(template: TemplateLike, values: TemplateValues): ValueProblem[] {
  const problems: ValueProblem[] = [];
  if (template.status && template.status !== 'APPROVED') {
    problems.push({ field: 'template', reason: `is not approved by WhatsApp (status ${template.status})` });
  }
  for (const v of templateVariables(template)) {
    const field = `values.${v.key}`;
    const raw = values[v.key];
    if (v.kind !== 'text') {
      if (!mediaOf(raw)) problems.push({ field, reason: raw == null || raw === '' ? `is required (a link to the ${v.kind})` : 'must be an http(s) link or a media id' });
      continue;
    }
    const text = textOf(raw);
    if (text == null || text.trim() === '') {
      problems.push({ field, reason: 'is required' });
      continue;
    }
    const max = v.component === 'header' ? 60 : v.component === 'button' ? 2000 : 1024;
    if (text.length > max) problems.push({ field, reason: `must be at most ${max} characters` });
    if (v.component !== 'body' && (/[\n\t]/.test(text) || / {5,}/.test(text))) problems.push({ field, reason: 'must not contain new lines, tabs or more than 4 spaces in a row' });
  }
  return problems;
}

/**
 * Check values and throw the API's 400 when something is missing or wrong.
 * @throws AppError 400 `validation.failed` with `details: [{ field, reason }]` (spec §8: field + reason)
 */
export function assertTemplateValues(template: TemplateLike, values: TemplateValues): void {
  const problems = templateValueProblems(template, values);
  if (problems.length) {
    throw new AppError('validation.failed', `${problems[0].field}: ${problems[0].reason}`, { details: problems });
  }
}

/** What a person sees of a filled template (unfilled variables stay as `{{n}}`). */
export interface TemplatePreview {
  header: string | null;
  /** media header: its kind and link (null link when not given yet or an uploaded id) */
  header_media: { kind: 'image' | 'video' | 'document'; link: string | null } | null;
  body: string;
  footer: string | null;
  buttons: Array<{ type: string; text: string; url?: string; phone_number?: string }>;
  /** header, body and footer joined by blank lines: the stored message's text */
  text: string;
}

function fill(text: string, component: string, values: TemplateValues): string {
  return text.replace(PLACEHOLDER, (whole, n: string) => {
    const v = textOf(values[`${component}.${n}`]);
    return v != null && v !== '' ? v : whole;
  });
}

/** The template's text with `values` filled in (a live preview; missing values stay `{{n}}`). */
export function fillTemplate(template: TemplateLike, values: TemplateValues = {}): TemplatePreview {
  let header: string | null = null;
  let headerMedia: TemplatePreview['header_media'] = null;
  let body = '';
  let footer: string | null = null;
  const buttons: TemplatePreview['buttons'] = [];
  for (const c of template.components) {
    if (c.type === 'HEADER') {
      if (c.format === 'TEXT') header = fill(c.text ?? '', 'header', values);
      else if (c.format === 'IMAGE' || c.format === 'VIDEO' || c.format === 'DOCUMENT') {
        const m = mediaOf(values['header.media']);
        headerMedia = { kind: c.format.toLowerCase() as 'image' | 'video' | 'document', link: m && 'link' in m ? m.link : null };
      }
    } else if (c.type === 'BODY') body = fill(c.text, 'body', values);
    else if (c.type === 'FOOTER') footer = c.text;
    else if (c.type === 'BUTTONS') {
      c.buttons.forEach((b, i) => {
        if (b.type === 'URL') buttons.push({ type: 'URL', text: b.text, url: fill((b as { url: string }).url, `button.${i}`, values) });
        else if (b.type === 'PHONE_NUMBER') buttons.push({ type: 'PHONE_NUMBER', text: b.text, phone_number: (b as { phone_number: string }).phone_number });
        else buttons.push({ type: b.type, text: b.text ?? '' });
      });
    }
  }
  const text = [header, body, footer].filter((s): s is string => !!s).join('\n\n');
  return { header, header_media: headerMedia, body, footer, buttons, text };
}

/** One parameter of a send component (Meta "Send message templates"). */
export type SendParameter =
  | { type: 'text'; text: string; parameter_name?: string }
  | { type: 'image' | 'video' | 'document'; image?: TemplateMediaValue; video?: TemplateMediaValue; document?: TemplateMediaValue };

export interface SendComponent {
  type: 'header' | 'body' | 'button';
  sub_type?: 'url';
  /** the button's 0-based position, as a string (Meta's examples send `"index": "0"`) */
  index?: string;
  parameters: SendParameter[];
}

/** The Cloud API request body of a template message: its target (`to` or `recipient`, send-target.rules.ts) and the template. */
export type TemplateSendBody = SendTarget & {
  messaging_product: 'whatsapp';
  type: 'template';
  template: { name: string; language: { code: string }; components?: SendComponent[] };
};

/**
 * The exact Cloud API body that sends `template` to `to` (Meta "Send message templates";
 * whatsapp-protocols.md A.6): header parameters (text, or the media by link/id), body parameters
 * in `{{1}}…{{n}}` order (named templates add `parameter_name`), one `button` component per URL
 * button with a variable (`sub_type: 'url'`, `index` as a string). `components` is left out when
 * the template has no variables (Meta's hello_world example).
 * @param target whom it goes to (chat/send-target.rules.ts sendTargetOf): `to` a number (wa_id digits;
 *   a leading `+` is kept as given) or a group id, or `recipient` a BSUID. Authentication templates
 *   need a number (templateTargetProblem): the callers check before building.
 * @throws AppError 400 validation.failed with details when a value is missing or invalid (assertTemplateValues)
 */
export function buildTemplateSend(target: SendTarget, template: TemplateLike, values: TemplateValues = {}): TemplateSendBody {
  assertTemplateValues(template, values);
  const named = template.parameter_format === 'NAMED';
  const vars = templateVariables(template);
  const textParam = (key: string, name: string): SendParameter => ({ type: 'text', ...(named && !/^\d+$/.test(name) ? { parameter_name: name } : {}), text: textOf(values[key])!.trim() });
  const components: SendComponent[] = [];
  const header = vars.filter((v) => v.component === 'header');
  if (header.length) {
    components.push({
      type: 'header',
      parameters: header.map((v): SendParameter => (v.kind === 'text' ? textParam(v.key, v.name) : ({ type: v.kind, [v.kind]: mediaOf(values[v.key])! } as SendParameter))),
    });
  }
  const body = vars.filter((v) => v.component === 'body');
  if (body.length) components.push({ type: 'body', parameters: body.map((v) => textParam(v.key, v.name)) });
  const byButton = new Map<number, TemplateVariable[]>();
  for (const v of vars) if (v.component === 'button') byButton.set(v.button_index!, [...(byButton.get(v.button_index!) ?? []), v]);
  for (const [index, list] of [...byButton.entries()].sort((a, b) => a[0] - b[0])) {
    components.push({ type: 'button', sub_type: 'url', index: String(index), parameters: list.map((v) => ({ type: 'text', text: textOf(values[v.key])!.trim() })) });
  }
  return {
    messaging_product: 'whatsapp',
    ...target,
    type: 'template',
    template: { name: template.name, language: { code: template.language }, ...(components.length ? { components } : {}) },
  };
}

/**
 * The 24-hour customer service window of a chat on one org phone (Meta A.8: each customer message
 * opens it for 24 h; outside it only templates may be sent).
 * @param chat `last_customer_message_at`: org phone (display digits) -> epoch ms of the customer's last message
 * @param now epoch ms
 * @param orgPhone the answering number (display digits); default the chat's `org_phone`
 * @returns `open` while `now - last < 24 h`; `closes_at` = last + 24 h (epoch ms), null when the customer never wrote
 */
export function windowState(
  chat: { last_customer_message_at?: Record<string, number> | null; org_phone?: string },
  now: number,
  orgPhone: string | undefined = chat.org_phone,
): WindowState {
  const last = orgPhone ? chat.last_customer_message_at?.[orgPhone] : undefined;
  if (last == null) return { open: false, closes_at: null };
  const closesAt = last + SERVICE_WINDOW_MS;
  return { open: now < closesAt, closes_at: closesAt };
}
