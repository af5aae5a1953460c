/**
 * The Graph stand-in's WhatsApp message templates (issue 16): what `GET /{version}/{waba_id}/message_templates`
 * serves (realistic APPROVED templates in Meta's shape: Meta "Message templates" / "Template
 * components") and the check of a template send (Meta "Send message templates"), written apart from
 * Chorus's own builder (shared/template/template.rules.ts) so a wrong body is caught, with Meta's
 * error codes: 132001 (no such template in that language), 132000 (parameter count mismatch),
 * 132012 (parameter format mismatch), 131008 (required parameter missing).
 */

/** The stand-in's templates: one per case the product handles. Any WABA id lists these. */
export const STANDIN_TEMPLATES: Array<Record<string, unknown>> = [
  {
    id: '1220000000000001',
    name: 'order_shipped',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'POSITIONAL',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2UvanBlZw==:ARb0example'] } },
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way and should arrive by {{3}}.', example: { body_text: [['Ana', '#10432', 'Friday']] } },
      { type: 'FOOTER', text: 'Reply STOP to stop updates' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'URL', text: 'Track order', url: 'https://shop.example.com/track/{{1}}', example: ['https://shop.example.com/track/10432'] },
          { type: 'QUICK_REPLY', text: 'Talk to us' },
        ],
      },
    ],
  },
  {
    id: '1220000000000002',
    name: 'appointment_reminder',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'POSITIONAL',
    components: [
      { type: 'BODY', text: 'Hello {{1}}, this is a reminder of your appointment on {{2}}. Reply to this message if you need to change it.', example: { body_text: [['Ana', 'Tuesday 3 pm']] } },
    ],
  },
  {
    id: '1220000000000003',
    name: 'follow_up',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'MARKETING',
    parameter_format: 'POSITIONAL',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Olá {{1}}!', example: { header_text: ['Ana'] } },
      { type: 'BODY', text: 'Ainda podemos ajudar com o seu pedido {{1}}? Responda a esta mensagem e a nossa equipe retorna em breve.', example: { body_text: [['#10432']] } },
      { type: 'FOOTER', text: 'Chorus Support' },
      { type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Ligar', phone_number: '+15550783881' }, { type: 'QUICK_REPLY', text: 'Parar' }] },
    ],
  },
  {
    id: '1220000000000004',
    name: 'welcome_back',
    language: 'en_US',
    status: 'APPROVED',
    category: 'MARKETING',
    parameter_format: 'POSITIONAL',
    components: [{ type: 'BODY', text: 'Thanks for reaching out to Chorus Support. Reply to this message and a member of the team will pick it up.' }],
  },
];

const PH = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const count = (s: unknown) => new Set([...String(s ?? '').matchAll(PH)].map((m) => m[1])).size;

/** A Meta-style refusal of a send: code and details. */
export interface TemplateSendError {
  code: number;
  message: string;
  details: string;
}

/**
 * Check a `type: 'template'` send against the stand-in's templates the way Cloud API does.
 * @returns null when the body is fine, else the Meta error to answer with (HTTP 400)
 */
export function checkTemplateSend(body: Record<string, unknown>, templates: Array<Record<string, unknown>>): TemplateSendError | null {
  const t = body.template as { name?: unknown; language?: { code?: unknown }; components?: unknown } | undefined;
  const invalid = (details: string): TemplateSendError => ({ code: 100, message: '(#100) Invalid parameter', details });
  if (body.messaging_product !== 'whatsapp') return invalid('Param messaging_product must be whatsapp');
  if (!t || typeof t.name !== 'string' || typeof t.language?.code !== 'string') return invalid('Param template[name] and template[language][code] are required');
  const tpl = templates.find((x) => x.name === t.name && x.language === t.language!.code && x.status === 'APPROVED');
  if (!tpl) return { code: 132001, message: '(#132001) Template name does not exist in the translation', details: `template name (${t.name}) does not exist in ${t.language.code}` };
  const comps = (tpl.components as Array<Record<string, unknown>>) ?? [];
  const sent = t.components == null ? [] : t.components;
  if (!Array.isArray(sent)) return invalid('Param template[components] must be an array');
  const header = comps.find((c) => c.type === 'HEADER');
  const bodyC = comps.find((c) => c.type === 'BODY');
  const buttons = ((comps.find((c) => c.type === 'BUTTONS')?.buttons as Array<Record<string, unknown>>) ?? []);
  const of = (type: string) => sent.filter((c: { type?: unknown }) => c?.type === type) as Array<{ parameters?: Array<Record<string, unknown>>; sub_type?: unknown; index?: unknown }>;
  const mismatch = (what: string, want: number, got: number): TemplateSendError => ({ code: 132000, message: '(#132000) Number of parameters does not match the expected number of params', details: `${what}: number of localizable_params (${got}) does not match the expected number of params (${want})` });
  // header
  const hSent = of('header')[0]?.parameters ?? [];
  if (header?.format === 'TEXT') {
    if (hSent.length !== count(header.text)) return mismatch('header', count(header.text), hSent.length);
    if (hSent.some((p) => p.type !== 'text' || typeof p.text !== 'string' || !p.text)) return { code: 132012, message: '(#132012) Parameter format does not match format in the created template', details: 'header: expected text parameters' };
  } else if (header && ['IMAGE', 'VIDEO', 'DOCUMENT'].includes(String(header.format))) {
    const kind = String(header.format).toLowerCase();
    const media = hSent[0]?.[kind] as { link?: unknown; id?: unknown } | undefined;
    if (hSent.length !== 1 || hSent[0].type !== kind || !(typeof media?.link === 'string' || typeof media?.id === 'string')) {
      return { code: 131008, message: '(#131008) Required parameter is missing', details: `header: a ${kind} parameter (link or id) is required` };
    }
  } else if (hSent.length) return mismatch('header', 0, hSent.length);
  // body
  const bSent = of('body')[0]?.parameters ?? [];
  const want = count(bodyC?.text);
  if (bSent.length !== want) return mismatch('body', want, bSent.length);
  if (bSent.some((p) => p.type !== 'text' || typeof p.text !== 'string' || !p.text)) return { code: 132012, message: '(#132012) Parameter format does not match format in the created template', details: 'body: expected text parameters' };
  // URL buttons with a variable need exactly one text parameter at their index
  for (const [i, b] of buttons.entries()) {
    if (b.type !== 'URL' || count(b.url) === 0) continue;
    const c = of('button').find((x) => x.sub_type === 'url' && String(x.index) === String(i));
    if (!c || c.parameters?.length !== 1 || typeof c.parameters[0].text !== 'string') return { code: 131008, message: '(#131008) Required parameter is missing', details: `button ${i}: a url suffix parameter is required` };
  }
  for (const c of of('button')) {
    const b = buttons[Number(c.index)];
    if (!b) return invalid(`button index ${String(c.index)} does not exist in the template`);
  }
  return null;
}
