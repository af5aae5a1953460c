import { describe, expect, it } from 'vitest';
import { HTTP_ROUTES, ROUTE_USES, routeUse } from './routes.ts';
import { isUse } from '../shared/plan/entitlements.rules.ts';
import { useOfEvent } from './lib/http.ts';
import { areaOfKind, hasAuditSentence } from '../shared/audit/audit.rules.ts';

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

/**
 * Issue 49 §5: the audit trail is declared on the route, so a new state-changing route cannot
 * forget it. Every JWT route that changes something says `audit: '<kind>'` (one row, written by
 * functions/lib/http.ts) or `audit: false` with the reason; the admin actions the issue lists
 * must have a kind, and every kind has an area (the /logs filter) and a sentence.
 */
describe('audit trail of the registry (issue 49)', () => {
  const stateChanging = HTTP_ROUTES.filter((r) => r.auth === 'jwt' && r.method !== 'GET');

  it('every state-changing web route declares its audit row, or why it has none', () => {
    const undeclared = stateChanging.filter((r) => r.audit === undefined).map((r) => `${r.method} ${r.path}`);
    expect(undeclared, 'declare `audit` on these routes in functions/routes.ts').toEqual([]);
    const unexplained = stateChanging.filter((r) => r.audit === false && !(r.auditWhy && r.auditWhy.trim().length >= 10)).map((r) => `${r.method} ${r.path}`);
    expect(unexplained, '`audit: false` needs an `auditWhy`').toEqual([]);
    expect(HTTP_ROUTES.filter((r) => r.method === 'GET' && r.audit).map((r) => r.path), 'reads write no audit rows').toEqual([]);
  });

  it('every audit kind has an area the log filters by and a sentence', () => {
    for (const r of HTTP_ROUTES.filter((x) => x.audit)) {
      const kind = r.audit as string;
      expect(kind, `${r.method} ${r.path}`).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(areaOfKind(kind), `${r.method} ${r.path}: ${kind}`).toBeDefined();
      expect(hasAuditSentence(kind), `${r.method} ${r.path}: ${kind}`).toBe(true);
    }
  });

  it('the admin actions of the issue are audited: rules, AI, API keys, webhooks, imports, invites, roles, workspace, ticket settings', () => {
    const audited = (key: string) => HTTP_ROUTES.find((r) => `${r.method} ${r.path}` === key)?.audit;
    const admin = [
      'POST /api/orgs/{org_id}/rules',
      'PUT /api/orgs/{org_id}/rules/{rule_id}',
      'DELETE /api/orgs/{org_id}/rules/{rule_id}',
      'PUT /api/orgs/{org_id}/ai/settings',
      'POST /api/orgs/{org_id}/api-keys',
      'DELETE /api/orgs/{org_id}/api-keys/{key_id}',
      'POST /api/orgs/{org_id}/webhooks',
      'PATCH /api/orgs/{org_id}/webhooks/{endpoint_id}',
      'DELETE /api/orgs/{org_id}/webhooks/{endpoint_id}',
      'POST /api/orgs/{org_id}/contacts/imports/{job_id}/start',
      'POST /api/orgs/{org_id}/contacts/imports/{job_id}/undo',
      'POST /api/orgs/{org_id}/team/invites',
      'PATCH /api/orgs/{org_id}/team/{email}',
      'DELETE /api/orgs/{org_id}/team/{email}',
      'PUT /api/orgs/{org_id}/settings/general',
      'PUT /api/orgs/{org_id}/settings/tickets',
      'PUT /api/orgs/{org_id}/settings/permissions',
      'POST /api/orgs/{org_id}/tickets',
      'POST /api/orgs/{org_id}/labels',
      'DELETE /api/orgs/{org_id}/labels/{label_id}',
    ];
    for (const k of admin) expect(typeof audited(k), k).toBe('string');
  });
});
