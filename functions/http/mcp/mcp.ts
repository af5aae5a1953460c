import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticateApiKey, bearerOf, loggedApi } from '../../lib/api-key.ts';
import { errorResponse, MAX_BODY_BYTES, rawBodyOf, useOfEvent } from '../../lib/http.ts';
import { requireUse } from '../../../shared/plan/gate.ts';
import { AppError } from '../../../shared/errors.ts';
import { createMcpServer } from './server.ts';

/**
 * POST|GET|DELETE /mcp: the MCP server over streamable HTTP (issue 20), stateless (no session
 * id: every POST carries a whole JSON-RPC exchange and is answered as JSON, which suits Lambda
 * and API Gateway's buffered responses). GET (server-initiated SSE stream) and DELETE (session end)
 * answer 405, as the MCP spec allows for a server without them.
 * Auth: `Authorization: Bearer <API key>` (functions/lib/api-key.ts; 401, 429 + Retry-After);
 * scopes are checked per tool (server.ts). The plan: MCP is Custom API and webhooks (spec §9; the
 * route's `use`, functions/routes.ts), refused on Starter (403 plan_feature) and after an end (402,
 * issue 42) before any tool runs. Requests are logged like every API request.
 */
type Ctx = Context & { chorus: { raw: Buffer; apiKey?: import('../../../shared/apikey/api-key.ts').ApiKeyPrincipal } };

export const handler = loggedApi(async (event: APIGatewayProxyEventV2, context: Ctx): Promise<APIGatewayProxyResultV2> => {
  try {
    const raw = rawBodyOf(event);
    context.chorus = { raw };
    if (raw.length > MAX_BODY_BYTES) throw new AppError('request.too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`, { status: 413 });
    const { principal, actor } = await authenticateApiKey(bearerOf(event), null, (p) => (context.chorus.apiKey = p));
    await requireUse(principal.org_id, useOfEvent(event));
    const method = event.requestContext.http.method.toUpperCase();
    if (method !== 'POST') {
      const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless (POST only).' }, id: null });
      return { statusCode: 405, headers: { 'content-type': 'application/json', allow: 'POST' }, body };
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(event.headers ?? {})) if (v != null) headers.set(k, v);
    const url = `https://${event.requestContext.domainName ?? 'localhost'}${event.rawPath}`;
    const request = new Request(url, { method, headers, body: new Uint8Array(raw) });
    const server = createMcpServer(actor, principal);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(request);
      const body = await response.text();
      const out: Record<string, string> = {};
      response.headers.forEach((v, k) => (out[k] = v));
      return { statusCode: response.status, headers: out, body };
    } finally {
      await server.close();
    }
  } catch (e) {
    return errorResponse(e);
  }
});
