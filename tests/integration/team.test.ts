import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminSetUserPasswordCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { ORG_SETUP_MESSAGES } from '../../shared/org/org.schemas.ts';
import type { MeResponse } from '../../shared/me.schemas.ts';
import type { TeamMember } from '../../shared/member/team.schemas.ts';

/**
 * Workspaces, team and permissions over HTTP on the local runtime (issue 3): the permissions
 * settings (any member reads, admins write), the team list, invites joined and declined, role
 * changes and removal rules, organization setup validation and the free-trial rule, and another
 * org's admin refused everything (404).
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
let otherOrgId: string;
const enc = encodeURIComponent;

type Res<T> = { status: number; body: T };
type Err = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const call = async <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown): Promise<Res<T>> => {
  const r = await rt.api(token, path, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const org = <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown) => call<T>(token, method, `/api/orgs/${rt.orgId}${path}`, json);

/** An invited user's password (in AWS the invitation email carries a temporary one; locally the test sets it). */
async function setPassword(email: string): Promise<void> {
  const c = new CognitoIdentityProviderClient({ endpoint: rt.cognitoEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await c.send(new AdminSetUserPasswordCommand({ UserPoolId: rt.userPoolId, Username: email, Password: rt.password, Permanent: true }));
  c.destroy();
}

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@team.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  otherOrgId = await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@team.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '444000777', display_phone_number: '15554440077' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
});
afterAll(async () => rt?.cleanup());

describe('permissions settings (spec §6)', () => {
  it('any member reads them; unset keys read as allowed', async () => {
    const r = await org<{ mask_phone_numbers: boolean; member_permissions: Record<string, boolean> }>(member, 'GET', '/settings/permissions');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ mask_phone_numbers: false, member_permissions: { analytics: true, bulk_message: true, rules: true, contacts: true, chat_assignee: true } });
  });

  it('admins write them, other org_metadata keys are kept, and GET /api/me carries member_permissions', async () => {
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { keep_me: 1, preferences: { mask_phone_numbers: false, member_permissions: {}, other_pref: 'x' } } }).go();
    const r = await org<{ member_permissions: Record<string, boolean> }>(admin, 'PUT', '/settings/permissions', { member_permissions: { analytics: false } });
    expect(r.status).toBe(200);
    expect(r.body.member_permissions.analytics).toBe(false);
    expect(r.body.member_permissions.contacts).toBe(true);
    const stored = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data?.org_metadata as Record<string, unknown>;
    expect(stored).toMatchObject({ keep_me: 1, preferences: { other_pref: 'x', member_permissions: { analytics: false } } });
    const me = (await call<MeResponse>(member, 'GET', '/api/me')).body;
    expect(me.orgs.find((o) => o.org_id === rt.orgId)?.member_permissions).toEqual({ analytics: false });
    expect((await org(admin, 'PUT', '/settings/permissions', { member_permissions: { analytics: true } })).status).toBe(200);
  });

  it('members get 403; bad values 400; another org 404', async () => {
    const r = await org<Err>(member, 'PUT', '/settings/permissions', { mask_phone_numbers: true });
    expect(r.status).toBe(403);
    const bad = await org<Err>(admin, 'PUT', '/settings/permissions', { member_permissions: { analytics: 'no' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContainEqual({ field: 'member_permissions.analytics', reason: 'must be true or false' });
    expect((await org(admin, 'PUT', '/settings/permissions', { unknown_key: true })).status).toBe(400);
    expect((await org(outsider, 'GET', '/settings/permissions')).status).toBe(404);
    expect((await org(outsider, 'PUT', '/settings/permissions', { mask_phone_numbers: true })).status).toBe(404);
  });
});

describe('team and invites (spec §4, §6)', () => {
  it('admins list the team with roles and statuses; members get 403', async () => {
    const r = await org<{ members: TeamMember[] }>(admin, 'GET', '/team');
    expect(r.status).toBe(200);
    expect(r.body.members).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: rt.adminEmail, role: 'admin', status: 'active' }), expect.objectContaining({ email: rt.memberEmail, role: 'member', status: 'active' })]),
    );
    expect((await org(member, 'GET', '/team')).status).toBe(403);
  });

  it('an admin invites; the invitee sees the invite in /api/me and joins (user_id, name, active)', async () => {
    const email = 'New.Person@team.chorus';
    const r = await org<{ member: TeamMember }>(admin, 'POST', '/team/invites', { email, role: 'member' });
    expect(r.status).toBe(201);
    expect(r.body.member).toMatchObject({ email: 'new.person@team.chorus', status: 'invited', role: 'member', invited_by: rt.adminEmail });
    expect((await org<Err>(admin, 'POST', '/team/invites', { email })).status).toBe(409);
    expect((await org<Err>(admin, 'POST', '/team/invites', { email: rt.memberEmail })).status).toBe(409);
    expect((await org<Err>(admin, 'POST', '/team/invites', { email: 'not-an-email' })).body.error.details).toContainEqual({ field: 'email', reason: 'Please enter a valid email address' });

    await setPassword('new.person@team.chorus');
    const invitee = await rt.signIn('new.person@team.chorus');
    const me = (await call<MeResponse>(invitee, 'GET', '/api/me')).body;
    expect(me.orgs).toEqual([]);
    expect(me.invites).toEqual([{ org_id: rt.orgId, org_name: 'Demo Workspace', invited_by: rt.adminEmail }]);
    // not a member yet: the org's routes answer 404
    expect((await org(invitee, 'GET', '/chats')).status).toBe(404);

    const j = await call<{ org_id: string; org_name: string }>(invitee, 'POST', `/api/invites/${rt.orgId}/join`, { member_name: 'New Person' });
    expect(j.status).toBe(200);
    expect(j.body).toEqual({ org_id: rt.orgId, org_name: 'Demo Workspace' });
    const row = (await db().entities.member.get({ org_id: rt.orgId, email: 'new.person@team.chorus' }).go()).data;
    expect(row).toMatchObject({ is_active: true, member_name: 'New Person', role: 'member' });
    expect(row?.user_id).toBeTruthy();
    const after = (await call<MeResponse>(invitee, 'GET', '/api/me')).body;
    expect(after.invites).toEqual([]);
    expect(after.orgs.map((o) => o.org_id)).toEqual([rt.orgId]);
    expect((await org(invitee, 'GET', '/chats')).status).toBe(200);
    // a second join finds no pending invite
    expect((await call(invitee, 'POST', `/api/invites/${rt.orgId}/join`, {})).status).toBe(404);
  });

  it('an invitee declines: the membership is gone', async () => {
    const email = 'decliner@team.chorus';
    expect((await org(admin, 'POST', '/team/invites', { email, role: 'admin' })).status).toBe(201);
    await setPassword(email);
    const t = await rt.signIn(email);
    expect((await call(t, 'POST', `/api/invites/${rt.orgId}/decline`)).status).toBe(200);
    expect((await db().entities.member.get({ org_id: rt.orgId, email }).go()).data).toBeNull();
    expect((await call<MeResponse>(t, 'GET', '/api/me')).body.invites).toEqual([]);
    expect((await call(t, 'POST', `/api/invites/${rt.orgId}/decline`)).status).toBe(404);
    // someone else's invite cannot be joined: no pending row for this caller in the other org
    expect((await call(t, 'POST', `/api/invites/${otherOrgId}/join`, {})).status).toBe(404);
  });

  it('admins change roles; the last admin cannot be demoted or removed; nobody removes themself', async () => {
    const promote = await org<{ member: TeamMember }>(admin, 'PATCH', `/team/${enc(rt.memberEmail)}`, { role: 'admin' });
    expect(promote.status).toBe(200);
    expect(promote.body.member.role).toBe('admin');
    expect((await org(admin, 'PATCH', `/team/${enc(rt.memberEmail)}`, { role: 'member' })).status).toBe(200);
    const lastAdmin = await org<Err>(admin, 'PATCH', `/team/${enc(rt.adminEmail)}`, { role: 'member' });
    expect(lastAdmin.status).toBe(400);
    expect(lastAdmin.body.error.code).toBe('team.last_admin');
    const self = await org<Err>(admin, 'DELETE', `/team/${enc(rt.adminEmail)}`);
    expect(self.status).toBe(400);
    expect(self.body.error).toMatchObject({ code: 'team.remove_self', message: 'You cannot remove yourself from the workspace.' });
    expect((await org(admin, 'PATCH', `/team/${enc('nobody@team.chorus')}`, { role: 'admin' })).status).toBe(404);
    expect((await org(admin, 'PATCH', `/team/${enc(rt.memberEmail)}`, { role: 'owner' })).status).toBe(400);
  });

  it('members get 403 on every team write; another org 404', async () => {
    expect((await org(member, 'POST', '/team/invites', { email: 'x@team.chorus' })).status).toBe(403);
    expect((await org(member, 'PATCH', `/team/${enc(rt.adminEmail)}`, { role: 'member' })).status).toBe(403);
    expect((await org(member, 'DELETE', `/team/${enc(rt.adminEmail)}`)).status).toBe(403);
    expect((await org(outsider, 'GET', '/team')).status).toBe(404);
    expect((await org(outsider, 'POST', '/team/invites', { email: 'x@team.chorus' })).status).toBe(404);
    expect((await org(outsider, 'PATCH', `/team/${enc(rt.memberEmail)}`, { role: 'admin' })).status).toBe(404);
    expect((await org(outsider, 'DELETE', `/team/${enc(rt.memberEmail)}`)).status).toBe(404);
    // and an admin cannot reach into another org by its id
    expect((await call(admin, 'GET', `/api/orgs/${otherOrgId}/team`)).status).toBe(404);
  });

  it('admins remove a member; the removed member loses access', async () => {
    expect((await org(admin, 'POST', '/team/invites', { email: 'temp@team.chorus' })).status).toBe(201);
    await setPassword('temp@team.chorus');
    const t = await rt.signIn('temp@team.chorus');
    expect((await call(t, 'POST', `/api/invites/${rt.orgId}/join`, {})).status).toBe(200);
    expect((await org(t, 'GET', '/chats')).status).toBe(200);
    expect((await org(admin, 'DELETE', `/team/${enc('temp@team.chorus')}`)).status).toBe(200);
    expect((await org(t, 'GET', '/chats')).status).toBe(404);
  });
});

describe('organization setup (spec §5, §6)', () => {
  const valid = { org_name: 'Acme Traders', contact_name: 'Asha', phone_number: '98765 43210', referralSource: 'google' };

  it('validates with spec §5 messages', async () => {
    const reason = async (body: Record<string, unknown>, field: string) => {
      const r = await call<Err>(outsider, 'POST', '/api/orgs', body);
      expect(r.status).toBe(400);
      return r.body.error.details?.find((d) => d.field === field)?.reason;
    };
    expect(await reason({ ...valid, org_name: '  ' }, 'org_name')).toBe(ORG_SETUP_MESSAGES.orgNameRequired);
    expect(await reason({ ...valid, org_name: 'x'.repeat(251) }, 'org_name')).toMatch(/250/);
    expect(await reason({ ...valid, contact_name: 'x'.repeat(251) }, 'contact_name')).toMatch(/250/);
    expect(await reason({ ...valid, phone_number: '' }, 'phone_number')).toBe('Please enter your number');
    expect(await reason({ ...valid, phone_number: '12345' }, 'phone_number')).toBe('Invalid phone number');
    expect(await reason({ ...valid, referralSource: undefined }, 'referralSource')).toBe('Please select where you heard about us');
    expect(await reason({ ...valid, referralSource: 'tv' }, 'referralSource')).toBe('Please select where you heard about us');
    expect(await reason({ ...valid, currency: 'EUR' }, 'currency')).toBeTruthy();
  });

  it('a user with no org creates one and becomes its admin, on a recorded free trial', async () => {
    const email = 'founder@team.chorus';
    await rt.createUser(email, rt.password);
    const t = await rt.signIn(email);
    const before = Date.now();
    const r = await call<{ org_id: string }>(t, 'POST', '/api/orgs', valid);
    expect(r.status).toBe(201);
    const o = (await db().entities.organization.get({ org_id: r.body.org_id }).go()).data;
    expect(o).toMatchObject({ org_name: 'Acme Traders', contact_name: 'Asha', phone_number: '+919876543210', referral_source: 'google', currency: 'USD', is_free_trial: true, trial_days: 14, created_by: email });
    expect(o?.plan_started_at).toBeGreaterThanOrEqual(before);
    expect(o!.trial_ends_at! - o!.plan_started_at!).toBe(14 * 86_400_000);
    const me = (await call<MeResponse>(t, 'GET', '/api/me')).body;
    expect(me.orgs).toEqual([expect.objectContaining({ org_id: r.body.org_id, role: 'admin', org_name: 'Acme Traders' })]);

    // a second workspace on a free trial needs allow_multiple_orgs
    const second = await call<Err>(t, 'POST', '/api/orgs', { ...valid, org_name: 'Second', currency: 'INR' });
    expect(second.status).toBe(403);
    expect(second.body.error.message).toBe('You have reached the maximum number of workspaces on a free trial. Please contact support to create additional workspaces');
    await db().entities.user.upsert({ email, allow_multiple_orgs: true }).go();
    const allowed = await call<{ org_id: string }>(t, 'POST', '/api/orgs', { ...valid, org_name: 'Second', currency: 'INR' });
    expect(allowed.status).toBe(201);
    expect((await db().entities.organization.get({ org_id: allowed.body.org_id }).go()).data?.currency).toBe('INR');
  });

  it('a user whose workspace is paid may create another', async () => {
    await db().entities.organization.patch({ org_id: otherOrgId }).set({ is_free_trial: false }).go();
    const r = await call<{ org_id: string }>(outsider, 'POST', '/api/orgs', { ...valid, org_name: 'Outsider Two' });
    expect(r.status).toBe(201);
  });
});

describe('the member row cache of the request path (issue 14, shared/auth/actor.ts)', () => {
  /** GetItem calls of member rows made while `fn` runs (the document client's middleware). */
  async function memberReads(fn: () => Promise<void>): Promise<number> {
    const { documentClient } = await import('../../shared/db/client.ts');
    let n = 0;
    const name = `countMemberReads${Math.random()}`;
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        const key = (args.input as { Key?: { sk?: string } }).Key;
        if (context.commandName === 'GetItemCommand' && key?.sk?.startsWith('$member_1#')) n++;
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      await fn();
    } finally {
      documentClient().middlewareStack.remove(name);
    }
    return n;
  }

  it('back-to-back requests read the member row once', async () => {
    const reads = await memberReads(async () => {
      for (let i = 0; i < 5; i++) expect((await org(member, 'GET', '/chats?limit=1')).status).toBe(200);
    });
    expect(reads).toBeLessThanOrEqual(1);
  });

  it('a deactivation or a removal written to the table applies to the very next request', async () => {
    expect((await org(member, 'GET', '/chats?limit=1')).status).toBe(200);
    await db().entities.member.patch({ org_id: rt.orgId, email: rt.memberEmail }).set({ is_active: false }).go();
    try {
      expect((await org<Err>(member, 'GET', '/chats?limit=1')).status).toBe(404);
    } finally {
      await db().entities.member.patch({ org_id: rt.orgId, email: rt.memberEmail }).set({ is_active: true }).go();
    }
    expect((await org(member, 'GET', '/chats?limit=1')).status).toBe(200);
    const row = (await db().entities.member.get({ org_id: rt.orgId, email: rt.memberEmail }).go()).data!;
    await db().entities.member.delete({ org_id: rt.orgId, email: rt.memberEmail }).go();
    try {
      expect((await org<Err>(member, 'GET', '/chats?limit=1')).status).toBe(404);
    } finally {
      await db().entities.member.put(row).go();
    }
    expect((await org(member, 'GET', '/chats?limit=1')).status).toBe(200);
  });

  it('a role change applies to the very next request, both ways', async () => {
    const put = (token: string) => org(token, 'PUT', '/settings/permissions', { member_permissions: { analytics: true } });
    expect((await put(member)).status).toBe(403);
    await db().entities.member.patch({ org_id: rt.orgId, email: rt.memberEmail }).set({ role: 'admin' }).go();
    try {
      expect((await put(member)).status).toBe(200);
    } finally {
      await db().entities.member.patch({ org_id: rt.orgId, email: rt.memberEmail }).set({ role: 'member' }).go();
    }
    expect((await put(member)).status).toBe(403);
  });
});
