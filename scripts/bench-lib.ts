/** Helpers shared by the `npm run bench:*` scripts. */

/** The p-th percentile (0-100) of a list of timings, nearest rank. */
export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so every run seeds the same data. */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Sign the demo admin in through the runtime's `/cognito` (USER_PASSWORD_AUTH, as the web app does)
 * and open the org's WebSocket as that member. Resolves once the socket is open.
 */
export async function adminSocket(rt: import('./local/runtime.ts').Runtime, port: number): Promise<import('ws').WebSocket> {
  const { default: WebSocket } = await import('ws');
  const auth = await fetch(`${rt.gateway.url}/cognito/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: rt.clientId, AuthParameters: { USERNAME: rt.demo.adminEmail, PASSWORD: rt.demo.password } }),
  });
  const token = ((await auth.json()) as { AuthenticationResult: { IdToken: string } }).AuthenticationResult.IdToken;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}&org_id=${rt.orgId}`);
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  return ws;
}

/**
 * POST one signed Cloud API webhook body to the runtime, as Meta does (X-Hub-Signature-256 with the app secret).
 * @returns the HTTP status
 */
export async function postSignedWebhook(rt: import('./local/runtime.ts').Runtime, port: number, raw: string): Promise<number> {
  const { signBody } = await import('../shared/whatsapp/cloud/signature.ts');
  const res = await fetch(`http://127.0.0.1:${port}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, rt.env.WHATSAPP_APP_SECRET) }, body: raw });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Items a command names: keys of a BatchGet, requests of a BatchWrite, items of a transaction, else
 * 1. DynamoDB Local's CPU goes per item (it parses the table's schema, 9 KB of JSON with our 8 GSIs,
 * for every item it reads or writes: a JFR profile of bench:ingest, session 12), so items say more
 * than calls.
 */
function itemsAsked(input: Record<string, unknown>): number {
  const req = input.RequestItems as Record<string, { Keys?: unknown[] } | unknown[]> | undefined;
  if (req) return Object.values(req).reduce((n: number, v) => n + (Array.isArray(v) ? v.length : (v.Keys?.length ?? 0)), 0);
  if (Array.isArray(input.TransactItems)) return input.TransactItems.length;
  return 1;
}

/**
 * Count DynamoDB calls by command (count, items, total ms) from now on, through the document client's
 * middleware: where a benchmark's time goes. @returns a function that prints the table (`reset`:
 * and starts counting afresh, for a phase's own calls)
 */
export async function profileDynamoDb(opts: { byQueue?: boolean } = {}): Promise<(reset?: boolean) => string> {
  const ops = new Map<string, { n: number; ms: number; items: number }>();
  const { documentClient } = await import('../shared/db/client.ts');
  const { logContext } = await import('../shared/log.ts');
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const t0 = performance.now();
      // opts.byQueue: keyed by the consumer's queue too (the log context's `queue`; none = an HTTP request)
      // a Query also names its index and the entity of its sort key (ElectroDB's `$entity_version#…` prefix)
      const q = context.commandName === 'QueryCommand' ? (args.input as { IndexName?: string; ExpressionAttributeValues?: Record<string, unknown> }) : null;
      const what = q ? ` (${q.IndexName ?? 'table'} ${String(Object.values(q.ExpressionAttributeValues ?? {}).find((v) => typeof v === 'string' && v.startsWith('$') && !v.startsWith('$chorus')) ?? '').split('#')[0]})` : '';
      const key = `${opts.byQueue ? `${String(logContext().queue ?? 'http')} ` : ''}${context.commandName ?? '?'}${what}`;
      let items = itemsAsked(args.input as Record<string, unknown>);
      try {
        const out = await next(args);
        const res = out.output as { Count?: number } | undefined;
        if (typeof res?.Count === 'number') items = res.Count; // a Query or Scan: the items it returned
        return out;
      } finally {
        const o = ops.get(key) ?? { n: 0, ms: 0, items: 0 };
        o.n++;
        o.ms += performance.now() - t0;
        o.items += items;
        ops.set(key, o);
      }
    },
    { step: 'initialize', name: 'benchProfile' },
  );
  // reset: start counting afresh after this print (a phase's own calls)
  return (reset = false) => {
    const out = [...ops].sort((a, b) => b[1].ms - a[1].ms).map(([k, o]) => `  ddb ${k}: ${o.n} calls, ${o.items} items, mean ${(o.ms / o.n).toFixed(1)} ms, total ${(o.ms / 1000).toFixed(1)} s`).join('\n');
    if (reset) ops.clear();
    return out;
  };
}
