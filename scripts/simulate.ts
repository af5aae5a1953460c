import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { signBody } from '../shared/whatsapp/cloud/signature.ts';
import { inboundText, statusUpdate } from '../shared/whatsapp/cloud/payloads.ts';
import { DEMO_DEFAULTS } from './local/runtime.ts';

/**
 * WhatsApp traffic simulator: posts Meta-shaped, correctly signed webhooks at a running Chorus.
 *   npm run simulate -- "Hello"                         a customer text message
 *   npm run simulate -- --from 447700900123 --name Ana "Hi"
 *   npm run simulate -- --file payload.json             sign and post a raw payload file as is
 *   npm run simulate -- --status delivered --id <wamid> [--to <wa_id>]   a delivery status
 * Env: CHORUS_URL (default http://localhost:$PORT or 3000), WHATSAPP_APP_SECRET,
 * WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_DISPLAY_PHONE_NUMBER (defaults match `npm start`).
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    file: { type: 'string' },
    from: { type: 'string', default: '16505551234' },
    name: { type: 'string', default: 'Sheena Nelson' },
    status: { type: 'string' },
    id: { type: 'string' },
    to: { type: 'string' },
    url: { type: 'string' },
  },
});

const base = values.url ?? process.env.CHORUS_URL ?? `http://localhost:${process.env.PORT || 3000}`;
const secret = process.env.WHATSAPP_APP_SECRET || DEMO_DEFAULTS.appSecret;
const phone = {
  display_phone_number: process.env.WHATSAPP_DISPLAY_PHONE_NUMBER || DEMO_DEFAULTS.displayPhoneNumber,
  phone_number_id: process.env.WHATSAPP_PHONE_NUMBER_ID || DEMO_DEFAULTS.phoneNumberId,
};

async function main() {
  let raw: string;
  if (values.file) raw = await readFile(values.file, 'utf8');
  else if (values.status) {
    if (!values.id) throw new Error('--status needs --id <wamid> (see the Graph stand-in page /__graph)');
    // Meta echoes a send's biz_opaque_callback_data in its statuses: take it from what the Graph stand-in received
    const sent = (await fetch(`${base}/__graph/sent.json`).then((r) => (r.ok ? r.json() : []), () => [])) as Array<{ wamid?: string; body?: { to?: string; biz_opaque_callback_data?: string } }>;
    const rec = sent.find((r) => r.wamid === values.id);
    const recipient = values.to ?? rec?.body?.to ?? values.from!;
    raw = JSON.stringify(statusUpdate(phone, { id: values.id, status: values.status as 'delivered', recipient, bizOpaqueCallbackData: rec?.body?.biz_opaque_callback_data }));
  } else {
    const text = positionals.join(' ');
    if (!text) throw new Error('usage: npm run simulate -- "message text"  |  --file payload.json  |  --status delivered --id <wamid>');
    raw = JSON.stringify(inboundText(phone, values.from!, text, { name: values.name }));
  }
  const res = await fetch(`${base}/webhooks/whatsapp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, secret) },
    body: raw,
  });
  console.log(`POST ${base}/webhooks/whatsapp -> ${res.status} ${await res.text()}`);
  if (!res.ok) process.exitCode = 1;
}

main().catch((e) => {
  console.error(String(e.message ?? e));
  process.exit(1);
});
