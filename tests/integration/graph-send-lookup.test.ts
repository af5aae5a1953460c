import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphStandIn } from '../../scripts/local/graph-standin.ts';
import { serveGraphStandIn, type ServedGraph } from '../factories/graph-standin.ts';
import { resetConfig } from '../../shared/config.ts';
import { lookupSentByCallbackData, sendToGraph, textMessageBody } from '../../shared/whatsapp/cloud/graph-client.ts';

/**
 * The send lookup by biz_opaque_callback_data (issue 16, broadcasts' crash reconciliation): a
 * capability of the local Graph stand-in only. The client says 'unsupported' unless
 * WHATSAPP_GRAPH_SEND_LOOKUP=1 (Meta has no such call); the stand-in's ledger file keeps what it
 * accepted across a restart of the process it lives in.
 */
let server: ServedGraph;
let dir: string;
const saved = { ...process.env };
let current: GraphStandIn;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chorus-graph-lookup-'));
  current = new GraphStandIn({ ledgerFile: join(dir, 'graph-sends.jsonl') });
  server = await serveGraphStandIn(() => current);
  process.env.WHATSAPP_GRAPH_URL = server.url;
  process.env.WHATSAPP_ACCESS_TOKEN = 'global-token';
});
afterAll(async () => {
  process.env = saved;
  resetConfig();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the Graph send lookup', () => {
  it("is 'unsupported' unless the Graph endpoint is the stand-in (WHATSAPP_GRAPH_SEND_LOOKUP=1)", async () => {
    process.env.WHATSAPP_GRAPH_SEND_LOOKUP = '0';
    resetConfig();
    expect(await lookupSentByCallbackData('106540352242922', 'chorus1|15550001@c.us|1|A')).toBe('unsupported');
  });

  it('finds the wamid of an accepted send by its callback data, nothing for another, and still after a restart', async () => {
    process.env.WHATSAPP_GRAPH_SEND_LOOKUP = '1';
    resetConfig();
    const data = 'chorus1|15550001@c.us|1700000000000|01HZX';
    const { wamid } = await sendToGraph('106540352242922', { ...textMessageBody({ to: '15550001', recipient_type: 'individual' }, 'Hello'), biz_opaque_callback_data: data });
    expect(await lookupSentByCallbackData('106540352242922', data)).toEqual([wamid]);
    expect(await lookupSentByCallbackData('106540352242922', `${data}-other`)).toEqual([]);
    // the runtime (and the stand-in inside it) restarts over the same data dir
    current = new GraphStandIn({ ledgerFile: join(dir, 'graph-sends.jsonl') });
    expect(current.sent).toHaveLength(0);
    expect(await lookupSentByCallbackData('106540352242922', data)).toEqual([wamid]);
  });
});
