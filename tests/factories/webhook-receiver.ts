import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP receiver for outbound webhook tests and the bench: records every request (path,
 * headers, raw body) and answers with what `respond` says for it (default 200).
 */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** epoch ms of arrival */
  at: number;
  /** the status answered */
  status: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** status to answer for a request (default 200) */
  respond: (r: Omit<Received, 'status'> & { status: number }) => number;
  close(): Promise<void>;
}

export async function startReceiver(respond: (r: Received) => number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const rec: Receiver = { url: '', port: 0, received, respond, close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '/', headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), status: 0 };
      const status = rec.respond(r);
      r.status = status;
      received.push(r);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
    });
  });
  server.keepAliveTimeout = 2_000;
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  rec.port = (server.address() as AddressInfo).port;
  rec.url = `http://127.0.0.1:${rec.port}`;
  rec.close = () =>
    new Promise<void>((res) => {
      server.closeAllConnections();
      server.close(() => res());
    });
  return rec;
}
