import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphStandIn } from '../../scripts/local/graph-standin.ts';

/** A Graph stand-in served on its own loopback port, for tests of the Graph client. */
export interface ServedGraph {
  /** base URL, e.g. `http://127.0.0.1:41234` (what WHATSAPP_GRAPH_URL takes) */
  url: string;
  close(): Promise<void>;
}

/**
 * Serve a Graph stand-in on a free loopback port. `standIn` is read on every request, so a test
 * can swap the instance (a restart of the process it lives in) while the port stays the same.
 */
export async function serveGraphStandIn(standIn: () => GraphStandIn): Promise<ServedGraph> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void standIn().handle(req, res, new URL(req.url ?? '/', 'http://x').pathname, Buffer.concat(chunks)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
