import { describe, expect, it } from 'vitest';
import { HTTP_ROUTES, ROUTE_USES, routeUse } from './routes.ts';
import { isUse } from '../shared/plan/entitlements.rules.ts';
import { useOfEvent } from './lib/http.ts';

/**
 * Every route of the registry has a use the one entitlement gate understands (issue 42,
 * shared/plan/entitlements.rules.ts), and the routes a blocked org needs to pay and sign in are open.
 */
describe('route uses (issue 42)', () => {
  it('every registry route resolves to a known use, and the wrapper finds it by routeKey', () => {
    for (const r of HTTP_ROUTES) {
      const key = `${r.method} ${r.path}`;
      expect(isUse(routeUse(r)), key).toBe(true);
      expect(ROUTE_USES.get(key), key).toBe(routeUse(r));
      expect(useOfEvent({ routeKey: key, requestContext: undefined as never }), key).toBe(routeUse(r));
    }
  });

  it('GET reads and other methods write unless a route says otherwise', () => {
    expect(routeUse({ method: 'GET' })).toBe('read');
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) expect(routeUse({ method: m })).toBe('write');
  });

  it('paying, the plan pages, signing in, one own profile and creating a workspace stay open', () => {
    const open = ['GET /api/me', 'PUT /api/me/preferences', 'POST /api/orgs', 'GET /api/orgs/{org_id}/plan', 'POST /api/orgs/{org_id}/plan/checkout', 'POST /api/orgs/{org_id}/plan/trial-extension', 'POST /webhooks/billing', 'POST /api/auth/otp/prepare', 'POST /api/invites/{invite_org_id}/join'];
    for (const k of open) expect(ROUTE_USES.get(k), k).toBe('open');
  });

  it('spec §9: what Starter lacks is named on its routes (API keys, webhooks, /v1, MCP, exports, rules, AI test)', () => {
    const apiRoutes = HTTP_ROUTES.filter((x) => x.path.startsWith('/v1/orgs/') || x.path === '/mcp' || x.path.startsWith('/api/orgs/{org_id}/webhooks') || x.path.startsWith('/api/orgs/{org_id}/api-keys'));
    // taking access away (revoking a key, deleting a webhook) is never refused
    for (const r of apiRoutes) expect(routeUse(r), `${r.method} ${r.path}`).toBe(r.method === 'DELETE' && r.path.startsWith('/api/') ? 'open' : 'custom_api_webhooks');
    expect(ROUTE_USES.get('POST /api/orgs/{org_id}/api-keys')).toBe('custom_api_webhooks');
    expect(ROUTE_USES.get('GET /api/orgs/{org_id}/chats/export.csv')).toBe('export');
    expect(ROUTE_USES.get('GET /api/orgs/{org_id}/contacts/export.csv')).toBe('export');
    expect(ROUTE_USES.get('POST /api/orgs/{org_id}/rules')).toBe('rules_engine');
    expect(ROUTE_USES.get('POST /api/orgs/{org_id}/ai/test')).toBe('ai_autoresponder');
  });
});
