/**
 * `npm run mcp`: the Chorus MCP server over stdio (issue 20), for assistants that start a local
 * process (Claude Desktop, Cursor, …). It bridges stdio to the workspace's streamable HTTP server
 * at `<CHORUS_API_URL>/mcp` with the official SDK (a Client on HTTP, a Server on stdio), so the
 * tools, their scopes and the request log are exactly those of `/mcp`.
 *
 * Env: CHORUS_API_KEY (required, `chk_…` from Settings > Integrations > API);
 *      CHORUS_API_URL (default http://127.0.0.1:3000, the local stack of `npm start`).
 * Nothing is written to stdout except MCP messages; diagnostics go to stderr.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

async function main(): Promise<void> {
  const key = process.env.CHORUS_API_KEY;
  if (!key) {
    process.stderr.write('Set CHORUS_API_KEY to an API key (Settings > Integrations > API).\n');
    process.exit(2);
  }
  const base = (process.env.CHORUS_API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const upstream = new Client({ name: 'chorus-mcp-stdio', version: '1.0.0' });
  await upstream.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));

  const server = new Server({ name: 'chorus', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (req) => upstream.listTools(req.params));
  server.setRequestHandler(CallToolRequestSchema, async (req) => upstream.callTool(req.params));
  await server.connect(new StdioServerTransport());
  process.stderr.write(`chorus MCP (stdio) bridged to ${base}/mcp\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`chorus MCP failed: ${String((e as Error)?.message ?? e)}\n`);
  process.exit(1);
});
