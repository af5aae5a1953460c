import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphStandIn } from '../../scripts/local/graph-standin.ts';
import { serveGraphStandIn, type ServedGraph } from '../factories/graph-standin.ts';
import { resetConfig } from '../../shared/config.ts';
import { fetchPhoneNumber, GraphApiError, sendToGraph, textMessageBody } from '../../shared/whatsapp/cloud/graph-client.ts';

/** The Graph client against the stand-in: the phone-number check and the per-phone token override. */
const graph = new GraphStandIn();
let server: ServedGraph;
const saved = { ...process.env };

beforeAll(async () => {
  server = await serveGraphStandIn(() => graph);
  process.env.WHATSAPP_GRAPH_URL = server.url;
  process.env.WHATSAPP_ACCESS_TOKEN = 'global-token';
  resetConfig();
  graph.addPhoneNumber('555', { display_phone_number: '+1 555-000-0555', verified_name: 'Unit Co', token: 'own-token' });
});
afterAll(async () => {
  process.env = saved;
  resetConfig();
  await server.close();
});

describe('fetchPhoneNumber', () => {
  it('answers the display number and verified name for the right token', async () => {
    expect(await fetchPhoneNumber('555', 'own-token')).toEqual({ id: '555', display_phone_number: '+1 555-000-0555', verified_name: 'Unit Co' });
  });

  it('throws Meta\'s OAuthException 190 for a bad token, not retryable', async () => {
    const e = await fetchPhoneNumber('555', 'bad').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GraphApiError);
    expect(e).toMatchObject({ code: 190, httpStatus: 401, retryable: false });
  });
});

describe('sendToGraph token', () => {
  it('uses the phone\'s own token when given, else the global one', async () => {
    await sendToGraph('555', textMessageBody({ to: '15550001', recipient_type: 'individual' }, 'hi'), 'own-token');
    await sendToGraph('555', textMessageBody({ to: '15550001', recipient_type: 'individual' }, 'hi'));
    expect(graph.sent.slice(-2).map((s) => s.authorization)).toEqual(['Bearer own-token', 'Bearer global-token']);
  });
});
