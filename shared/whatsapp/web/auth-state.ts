import { db } from '../../db/service.ts';
import { config } from '../../config.ts';
import { decryptToken, encryptToken } from '../../phone/token-crypto.ts';

/**
 * Baileys `AuthenticationState` kept in the table instead of files (whatsapp-protocols.md §B.10):
 * the creds in one item, Signal keys by (session, type, id). Values are serialized with Baileys'
 * BufferJSON (Buffers survive) and encrypted at rest with AES-256-GCM under PHONE_TOKEN_KEY
 * (shared/phone/token-crypto.ts), bound to `<phone>/<type>/<id>` so an item copied elsewhere does
 * not decrypt. One encrypt per item written, one decrypt per item read. Keys change on nearly every
 * send and receive, so `keys.set` writes at once; concurrent sets of one key keep the last write.
 * Baileys is loaded lazily: only the worker pays for it.
 */

/** Encrypt/decrypt of one item's text (injectable for the contract test). */
export interface AuthCipher {
  encrypt(plain: string, aad: string): string;
  decrypt(stored: string, aad: string): string;
}

/** The AES-256-GCM cipher under PHONE_TOKEN_KEY (shared/phone/token-crypto.ts). @throws Error when the key is not configured */
export const tokenKeyCipher = (keyB64: string = config().PHONE_TOKEN_KEY): AuthCipher => {
  if (!keyB64) throw new Error('PHONE_TOKEN_KEY is not set: WhatsApp Web credentials cannot be stored encrypted');
  return { encrypt: (plain, aad) => encryptToken(plain, keyB64, aad), decrypt: (stored, aad) => decryptToken(stored, keyB64, aad) };
};

const CREDS = { type: 'creds', id: '-' } as const;
const aadOf = (phoneId: string, type: string, id: string) => `wa_web/${phoneId}/${type}/${id}`;

type Baileys = typeof import('baileys');
let baileys: Promise<Baileys> | undefined;
const loadBaileys = () => (baileys ??= import('baileys'));

/**
 * The DynamoDB-backed auth state of one number.
 * @returns `state` for `makeWASocket({ auth })` (wrap `state.keys` with makeCacheableSignalKeyStore),
 *   `saveCreds` for `creds.update`, and `clear` for a logged-out session (removes every item)
 */
export async function useDynamoAuthState(phoneId: string, cipher: AuthCipher = tokenKeyCipher()) {
  const { BufferJSON, initAuthCreds, proto } = await loadBaileys();
  const entity = db().entities.waWebAuth;
  const write = async (type: string, id: string, value: unknown) => {
    const data_enc = cipher.encrypt(JSON.stringify(value, BufferJSON.replacer), aadOf(phoneId, type, id));
    await entity.put({ phone_id: phoneId, type, id, data_enc }).go();
  };
  const read = (type: string, id: string, data_enc: string): unknown => JSON.parse(cipher.decrypt(data_enc, aadOf(phoneId, type, id)), BufferJSON.reviver);

  const stored = (await entity.get({ phone_id: phoneId, ...CREDS }).go()).data;
  const creds = stored ? (read(CREDS.type, CREDS.id, stored.data_enc) as ReturnType<typeof initAuthCreds>) : initAuthCreds();

  const keys = {
    async get(type: string, ids: string[]) {
      const out: Record<string, unknown> = {};
      if (!ids.length) return out;
      const res = await entity.get(ids.map((id) => ({ phone_id: phoneId, type, id }))).go({ preserveBatchOrder: false });
      for (const item of res.data) {
        if (!item) continue;
        let value = read(type, item.id, item.data_enc);
        if (type === 'app-state-sync-key' && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
        out[item.id] = value;
      }
      if (res.unprocessed?.length) throw new Error(`auth keys of ${phoneId} not read (throttled): retry`);
      return out;
    },
    async set(data: Record<string, Record<string, unknown> | undefined>) {
      const puts: Array<Promise<void>> = [];
      const removes: Array<{ phone_id: string; type: string; id: string }> = [];
      for (const [type, byId] of Object.entries(data)) {
        for (const [id, value] of Object.entries(byId ?? {})) {
          if (value == null) removes.push({ phone_id: phoneId, type, id });
          else puts.push(write(type, id, value));
        }
      }
      if (removes.length) await entity.delete(removes).go();
      await Promise.all(puts);
    },
    async clear() {
      const all = await entity.query.byKey({ phone_id: phoneId }).go({ pages: 'all' });
      const rows = all.data.map((r) => ({ phone_id: phoneId, type: r.type, id: r.id }));
      if (rows.length) await entity.delete(rows).go();
    },
  };

  return {
    state: { creds, keys },
    saveCreds: () => write(CREDS.type, CREDS.id, creds),
    clear: () => keys.clear(),
  };
}
