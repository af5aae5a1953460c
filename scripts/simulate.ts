import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { signBody } from '../shared/whatsapp/cloud/signature.ts';
import { statusUpdate } from '../shared/whatsapp/cloud/payloads.ts';
import { bsuidFor, bareUsername, inboundTextFromUser, statusToUser, type WaUser } from '../shared/whatsapp/cloud/bsuid-payloads.ts';
import { DEMO_DEFAULTS } from './local/runtime.ts';

/**
 * WhatsApp traffic simulator: posts Meta-shaped, correctly signed webhooks at a running Chorus.
 *   npm run simulate -- "Hello"                         a customer text message
 *   npm run simulate -- --from 447700900123 --name Ana "Hi"
 *   npm run simulate -- --username @ana --no-number "Hi"   a username user whose number Meta withholds
 *   npm run simulate -- --file payload.json             sign and post a raw payload file as is
 *   npm run simulate -- --status delivered --id <wamid> [--to <wa_id>]   a delivery status
 *
 * Messages have the 2026 shape (Meta, "Business-scoped user IDs"): the customer's business-scoped
 * user id (BSUID) in `contacts[].user_id` and `messages[].from_user_id`, beside `wa_id` / `from`
 * unless `--no-number` (then neither is sent). `--user-id <BSUID>` sets it; by default it is made
 * up from the username, else the number, so repeated runs are the same person. `--username`
 * (a leading `@` is dropped, as Meta sends none) goes to `contacts[].profile.username`.
 * A status names the BSUID (`recipient_user_id`, and `contacts[]`) when `--user-id` or `--username`
 * is given or the message was sent to a BSUID; `--no-number` leaves `recipient_id` out. As Meta does,
 * a `failed` status has no `contacts`, and no `recipient_user_id` for a message sent to a number.
 * Env: CHORUS_URL (default http://localhost:$PORT or 3000), WHATSAPP_APP_SECRET,
 * WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_DISPLAY_PHONE_NUMBER (defaults match `npm start`).
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    file: { type: 'string' },
    from: { type: 'string', default: '16505551234' },
    name: { type: 'string', default: 'Sheena Nelson' },
    username: { type: 'string' },
    'user-id': { type: 'string' },
    'no-number': { type: 'boolean', default: false },
    status: { type: 'string' },
    id: { type: 'string' },
    to: { type: 'string' },
    url: { type: 'string' },
  },
});

/** The BSUID to send: --user-id, else one made up from the username or the number (the same each run). */
const userIdOf = (phone: string | undefined): string =>
  values['user-id'] ?? bsuidFor(values.username ? `username:${bareUsername(values.username).toLowerCase()}` : `phone:${phone ?? values.from}`, phone ?? values.from);

if (values['user-id'] && !/^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/.test(values['user-id'])) {
  console.error(`--user-id ${values['user-id']} is not a BSUID (a country code, a dot, up to 128 letters and digits: US.13491208655302741918)`);
  process.exit(2);
}

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
    const sent = (await fetch(`${base}/__graph/sent.json`).then((r) => (r.ok ? r.json() : []), () => [])) as Array<{ wamid?: string; body?: { to?: string; recipient?: string; biz_opaque_callback_data?: string } }>;
    const rec = sent.find((r) => r.wamid === values.id);
    const status = values.status as 'delivered';
    const bizOpaqueCallbackData = rec?.body?.biz_opaque_callback_data;
    // a send to a BSUID (`recipient`, no `to`) is answered with statuses that name it
    const sentToBsuid = !!rec?.body?.recipient && !rec.body.to;
    if (values['user-id'] || values.username || values['no-number'] || sentToBsuid) {
      // a send to a BSUID says nothing of the number: none unless --to names it
      const number = values['no-number'] || (sentToBsuid && !values.to) ? undefined : (values.to ?? rec?.body?.to ?? values.from!);
      const user: WaUser = { phone: number, userId: values['user-id'] ?? (sentToBsuid && !values.username ? rec!.body!.recipient! : userIdOf(number)), username: values.username };
      raw = JSON.stringify(statusToUser(phone, { id: values.id, status, user, sentToNumber: !!number && !sentToBsuid, bizOpaqueCallbackData }));
    } else {
      const recipient = values.to ?? rec?.body?.to ?? values.from!;
      raw = JSON.stringify(statusUpdate(phone, { id: values.id, status, recipient, bizOpaqueCallbackData }));
    }
  } else {
    const text = positionals.join(' ');
    if (!text) throw new Error('usage: npm run simulate -- "message text"  |  --file payload.json  |  --status delivered --id <wamid>');
    const number = values['no-number'] ? undefined : values.from!;
    const user: WaUser = { phone: number, userId: userIdOf(number), name: values.name, username: values.username };
    raw = JSON.stringify(inboundTextFromUser(phone, user, text));
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
