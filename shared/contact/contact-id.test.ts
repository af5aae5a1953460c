import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../config.ts';

/**
 * The key of masked ids (issue 42 §4): in AWS it comes from the Secrets Manager secret
 * MASKED_ID_KEY_SECRET_ARN, read once when the module loads (cold start) through AWS_ENDPOINT_URL,
 * and no longer from the table name; locally from MASKED_ID_KEY (the data dir's key).
 */
const SECRET = 'k'.repeat(20) + 'masked-id-secret-value-0123456789';
const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:ChorusDataMaskedIdKey-AbCdEf';
let server: Server;
let reads: Array<{ target: string; body: { SecretId?: string } }> = [];
const saved = { ...process.env };

beforeAll(async () => {
  // a Secrets Manager stand-in (JSON 1.1 protocol, `X-Amz-Target: secretsmanager.GetSecretValue`)
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { SecretId?: string };
      reads.push({ target: String(req.headers['x-amz-target']), body });
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify({ ARN, Name: 'ChorusDataMaskedIdKey', SecretString: SECRET, VersionId: 'v1', VersionStages: ['AWSCURRENT'], CreatedDate: 1 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterEach(() => {
  process.env = { ...saved };
  resetConfig();
  reads = [];
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** contact-id.ts loaded afresh (a cold start) with `env`. */
async function coldStart(env: Record<string, string>) {
  vi.resetModules();
  for (const k of ['MASKED_ID_KEY', 'MASKED_ID_KEY_SECRET_ARN', 'OTP_HMAC_KEY', 'PHONE_TOKEN_KEY']) delete process.env[k];
  Object.assign(process.env, { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', ...env });
  const { resetConfig: reset } = await import('../config.ts');
  reset();
  return import('./contact-id.ts');
}

describe('masked-id key', () => {
  it('in AWS: read once from Secrets Manager at cold start (AWS_ENDPOINT_URL honoured), the same whatever the table is called', async () => {
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const a = await coldStart({ MASKED_ID_KEY_SECRET_ARN: ARN, AWS_ENDPOINT_URL: endpoint, TABLE_NAME: 'ChorusData-Table-1' });
    expect(reads).toEqual([{ target: 'secretsmanager.GetSecretValue', body: expect.objectContaining({ SecretId: ARN }) }]);
    const sealed = Array.from({ length: 5 }, () => a.sealContactId('org_1', '14155550100'));
    expect(new Set(sealed).size).toBe(1);
    expect(reads).toHaveLength(1);
    expect(a.openContactId('org_1', sealed[0]!)).toBe('14155550100');

    const b = await coldStart({ MASKED_ID_KEY_SECRET_ARN: ARN, AWS_ENDPOINT_URL: endpoint, TABLE_NAME: 'ChorusData-Table-2' });
    expect(b.sealContactId('org_1', '14155550100')).toBe(sealed[0]);

    // the same key as the local runtime's MASKED_ID_KEY with that value, and not the table-name derivation
    const local = await coldStart({ MASKED_ID_KEY: SECRET });
    expect(local.sealContactId('org_1', '14155550100')).toBe(sealed[0]);
    const derived = await coldStart({ TABLE_NAME: 'ChorusData-Table-1' });
    expect(derived.sealContactId('org_1', '14155550100')).not.toBe(sealed[0]);
    expect(derived.openContactId('org_1', sealed[0]!)).toBeNull();
  });

  it('refuses a secret too short to be a key', async () => {
    const short = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify({ ARN, Name: 'x', SecretString: 'short' }));
    });
    await new Promise<void>((r) => short.listen(0, '127.0.0.1', r));
    try {
      const { readMaskedIdKey } = await coldStart({ AWS_ENDPOINT_URL: `http://127.0.0.1:${(short.address() as AddressInfo).port}` });
      await expect(readMaskedIdKey(ARN)).rejects.toThrow(/at least 32 characters/);
    } finally {
      await new Promise<void>((r) => short.close(() => r()));
    }
  });
});
