/**
 * /settings/integrations/mcp (admins; issue 20): how to connect an AI assistant to the workspace's
 * MCP server — over streamable HTTP at `/mcp`, or over stdio with `npm run mcp` — with config
 * snippets, and the tools with the scopes each needs.
 */
import { Link } from 'react-router-dom';
import { MCP_TOOL_SCOPES } from '#shared/apikey/api-key.rules.ts';
import { getConfig } from '../../lib/config.ts';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../settings/index.ts';
import './integrations.css';

export function McpPage() {
  const base = getConfig().apiUrl || window.location.origin;
  const http = JSON.stringify({ mcpServers: { chorus: { type: 'http', url: `${base}/mcp`, headers: { Authorization: 'Bearer <API key>' } } } }, null, 2);
  const stdio = JSON.stringify({ mcpServers: { chorus: { command: 'npm', args: ['run', '--silent', 'mcp'], cwd: '<path to the Chorus repo>', env: { CHORUS_API_KEY: '<API key>', CHORUS_API_URL: base } } } }, null, 2);
  return (
    <div className="page" data-testid="mcp-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="MCP" />
      </header>
      <div className="page-body page-body-wide settings-form">
        <section className="settings-section" aria-labelledby="mcp-intro">
          <h2 id="mcp-intro">Connect an AI assistant</h2>
          <p className="muted">
            Chorus speaks the Model Context Protocol. Create an <Link to="/settings/integrations/api">API key</Link> with the scopes the assistant needs, then add one of these to the
            assistant&apos;s MCP configuration. Each tool only works when the key has its scopes.
          </p>
        </section>
        <section className="settings-section" aria-labelledby="mcp-http">
          <h2 id="mcp-http">Streamable HTTP</h2>
          <p className="muted small">
            Endpoint <code>{base}/mcp</code>, authenticated by <code>Authorization: Bearer &lt;API key&gt;</code>.
          </p>
          <pre className="code-snippet" data-testid="mcp-http-snippet">
            {http}
          </pre>
        </section>
        <section className="settings-section" aria-labelledby="mcp-stdio">
          <h2 id="mcp-stdio">Local process (stdio)</h2>
          <p className="muted small">
            For assistants that start a local command (Claude Desktop, Cursor…): <code>npm run mcp</code> reads the key from <code>CHORUS_API_KEY</code>.
          </p>
          <pre className="code-snippet" data-testid="mcp-stdio-snippet">
            {stdio}
          </pre>
        </section>
        <section className="settings-section" aria-labelledby="mcp-tools">
          <h2 id="mcp-tools">Tools</h2>
          <table className="key-table">
            <thead>
              <tr>
                <th>Tool</th>
                <th>Needs</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(MCP_TOOL_SCOPES).map(([tool, scopes]) => (
                <tr key={tool}>
                  <td>
                    <code>{tool}</code>
                  </td>
                  <td className="key-scopes">{scopes.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </div>
  );
}
