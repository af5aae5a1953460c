/**
 * The app's lifecycle layer (issue 22), mounted once in the shell (app/shell/AppShell.tsx) as a
 * lazy chunk: everything here is decided by the one entitlement module (shared/plan/entitlements.rules.ts)
 * from GET /plan and GET /incident:
 * - blocking screens: maintenance (feature flag), service down (downtime incident; spec §8 message
 *   or the incident's own, with support and status links), trial ended, enterprise ended, inactive
 *   (which leaves settings open, spec §4);
 * - banners above the page: the red overdue banner (Go to billing), every phone disconnected
 *   (Reconnect phones), the dismissible incident banner (dismissal remembered per incident id);
 * - in the sidebar (a slot above its footer): the trial banner with the extension request dialog,
 *   the old-build icon (web/dist/version.json written at build time) and What's New;
 * - Getting Started with the onboarding cards on desktop until a first phone is connected (the
 *   spec §2 mobile message on phones);
 * - the server's refusals (issue 42, lib/api.ts setEntitlementHandler): `subscription_ended` and
 *   `trial_ended` reload GET /plan, so the matching blocking screen above shows; `plan_feature`
 *   opens the upgrade prompt naming the feature (the same words as PlanGate).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { blockingScreen, maintenanceState, screenBlocksPath, showOverdueBanner, trialBannerText, type OrgPlanState } from '#shared/plan/entitlements.rules.ts';
import type { PlanView } from '#shared/plan/plan.schemas.ts';
import { FEATURE_LABELS, FEATURES, PLANS, isPlanId, type Feature } from '#shared/plan/catalog.rules.ts';
import { useSession } from '../../app/session.tsx';
import { setEntitlementHandler } from '../../lib/api.ts';
import { PHONE_QUERY, useMediaQuery } from '../../lib/useMediaQuery.ts';
import { planKeys, useIncident, usePlan } from './api.ts';
import { link } from './links.ts';
import changelog from './changelog.json';
import './plans.css';

const TrialExtensionDialog = lazy(() => import('./TrialExtensionDialog.tsx').then((m) => ({ default: m.TrialExtensionDialog })));
const WhatsNewDialog = lazy(() => import('./WhatsNewDialog.tsx').then((m) => ({ default: m.WhatsNewDialog })));

const INCIDENT_KEY = 'chorus.incident_dismissed';
const WHATS_NEW_KEY = 'chorus.whats_new_seen';
const GETTING_STARTED_KEY = 'chorus.getting_started_hidden';
export const MOBILE_NO_PHONES = 'No phones connected. To connect a phone, please open the product from your desktop.';
export const OLD_BUILD_MESSAGE = 'You are using an older version of Chorus. Click to reload';

const stored = (k: string): string | null => {
  try {
    return localStorage.getItem(k);
  } catch {
    return null;
  }
};
const store = (k: string, v: string) => {
  try {
    localStorage.setItem(k, v);
  } catch {
    /* private mode */
  }
};

export const toPlanState = (p: PlanView): OrgPlanState => ({
  org_id: p.org_id,
  subscription_status: p.subscription_status,
  is_free_trial: p.is_free_trial,
  is_enterprise: p.is_enterprise,
  trial_ends_at: p.trial_ends_at,
  org_plan: p.org_plan,
  access_scopes: { feature_flags: { maintenance: p.maintenance } },
});

export const ONBOARDING_CARDS = [
  { key: 'bulk', title: 'Send bulk messages', body: 'Reach many customers at once with templates.', to: '/broadcast' },
  { key: 'team', title: 'Manage your team', body: 'Invite teammates and set who sees what.', to: '/settings/team' },
  { key: 'phones', title: 'Add phones', body: 'Connect every WhatsApp number your team answers.', to: '/settings/phones' },
  { key: 'tickets', title: 'Manage tickets', body: 'Turn messages into tickets and track them.', to: '/tickets' },
  { key: 'integrations', title: 'Integrate your tools', body: 'HubSpot, Freshdesk, Slack, Zapier and more.', to: '/settings/integrations/browse' },
  { key: 'api', title: 'APIs and webhooks', body: 'Build on Chorus with the REST API and webhooks.', to: '/settings/integrations/api' },
] as const;

function useOldBuild(): boolean {
  const [old, setOld] = useState(false);
  useEffect(() => {
    const mine = typeof __CHORUS_BUILD__ === 'string' ? __CHORUS_BUILD__ : '';
    if (!mine) return;
    const check = () =>
      fetch('/version.json', { cache: 'no-store' })
        .then((r) => (r.ok ? r.json() : null))
        .then((j: { version?: string } | null) => setOld(!!j?.version && j.version !== mine))
        .catch(() => undefined);
    void check();
    const t = setInterval(check, 10 * 60_000);
    return () => clearInterval(t);
  }, []);
  return old;
}

function FullScreen({ testId, title, children }: { testId: string; title: string; children: React.ReactNode }) {
  return (
    <div className="fullscreen lc-blocking" role="alertdialog" aria-modal="true" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <div className="fullscreen-card">
        <div className="brand-mark" aria-hidden="true">
          C
        </div>
        <h1 id={`${testId}-title`}>{title}</h1>
        {children}
      </div>
    </div>
  );
}

export function LifecycleLayer() {
  const { org } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const phone = useMediaQuery(PHONE_QUERY);
  const plan = usePlan(org.org_id).data;
  const incident = useIncident().data ?? null;
  const oldBuild = useOldBuild();
  const [dismissedIncident, setDismissedIncident] = useState(() => stored(INCIDENT_KEY));
  const [extensionOpen, setExtensionOpen] = useState(false);
  const [whatsNewOpen, setWhatsNewOpen] = useState(false);
  const [seenWhatsNew, setSeenWhatsNew] = useState(() => stored(WHATS_NEW_KEY));
  const [gsHidden, setGsHidden] = useState(() => stored(`${GETTING_STARTED_KEY}:${org.org_id}`) === '1');
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => setSlot(document.getElementById('sidebar-plan-slot')), []);
  const qc = useQueryClient();
  const [upgrade, setUpgrade] = useState<{ feature: Feature | null; plan: string } | null>(null);
  // the server refused for the plan or an ended subscription: show the matching screen or prompt
  useEffect(() => {
    setEntitlementHandler((e) => {
      if (e.code !== 'plan_feature') return void qc.invalidateQueries({ queryKey: planKeys.plan(org.org_id) });
      const d = (Array.isArray(e.details) ? e.details[0] : null) as { reason?: string; plan_needed?: string } | null;
      const feature = (FEATURES as readonly string[]).includes(d?.reason ?? '') ? (d!.reason as Feature) : null;
      setUpgrade({ feature, plan: isPlanId(d?.plan_needed) ? PLANS[d.plan_needed].name : PLANS.pro.name });
    });
    return () => setEntitlementHandler(() => undefined);
  }, [qc, org.org_id]);

  const now = Date.now();
  const state = plan ? toPlanState(plan) : null;
  const maint = state ? maintenanceState(state, incident, plan?.maintenance_exempt ? [org.org_id] : []) : null;
  const screen = state ? blockingScreen(state, now) : null;
  const trialText = state ? trialBannerText(state, now) : null;
  const latest = changelog[0]?.id ?? '';
  const admin = org.role === 'admin';

  let blocking: React.ReactNode = null;
  if (maint?.kind === 'maintenance')
    blocking = (
      <FullScreen testId="maintenance-screen" title="Chorus is under maintenance">
        <p>We are upgrading Chorus for your workspace. Please check back in a little while.</p>
        {link('status') && (
          <a className="btn" href={link('status')!} target="_blank" rel="noreferrer">
            System status
          </a>
        )}
      </FullScreen>
    );
  else if (maint?.kind === 'down')
    blocking = (
      <FullScreen testId="service-down-screen" title="Service down">
        <p data-testid="service-down-message">{maint.message}</p>
        <div className="lc-actions">
          {link('support') && (
            <a className="btn btn-primary" href={link('support')!} target="_blank" rel="noreferrer">
              Contact support
            </a>
          )}
          {link('status') && (
            <a className="btn" href={link('status')!} target="_blank" rel="noreferrer">
              System status
            </a>
          )}
        </div>
      </FullScreen>
    );
  else if (screen && screenBlocksPath(screen, pathname))
    blocking =
      screen === 'trial_ended' ? (
        <FullScreen testId="trial-ended-screen" title="Your free trial has ended">
          <p>Choose a plan to keep working with your team's chats. Everything you set up is kept.</p>
          <div className="lc-actions">
            <button type="button" className="btn btn-primary" onClick={() => navigate('/settings/plans/select')} disabled={!admin} title={admin ? undefined : 'Ask an admin to choose a plan'}>
              Choose a plan
            </button>
            {!plan?.trial_extension_requested_at && (
              <button type="button" className="btn" onClick={() => setExtensionOpen(true)} data-testid="trial-ended-extend">
                Request an extension
              </button>
            )}
          </div>
        </FullScreen>
      ) : screen === 'enterprise_ended' ? (
        <FullScreen testId="enterprise-ended-screen" title="Your Enterprise subscription has ended">
          <p>Your contract period is over. Contact your account manager or our sales team to renew it.</p>
          <div className="lc-actions">
            {link('sales') && (
              <a className="btn btn-primary" href={link('sales')!}>
                Contact sales
              </a>
            )}
            <button type="button" className="btn" onClick={() => navigate('/settings/plans')}>
              View plan
            </button>
          </div>
        </FullScreen>
      ) : (
        <FullScreen testId="inactive-screen" title="Your subscription is inactive">
          <p>We could not collect your last payment, so your subscription was canceled. Settings stay open: go to billing to pay and reactivate.</p>
          <div className="lc-actions">
            <button type="button" className="btn btn-primary" onClick={() => navigate('/settings/plans')}>
              Go to billing
            </button>
            <button type="button" className="btn" onClick={() => navigate('/settings')}>
              Open settings
            </button>
          </div>
        </FullScreen>
      );

  const banners: React.ReactNode[] = [];
  if (state && showOverdueBanner(state))
    banners.push(
      <div key="overdue" className="lc-banner lc-danger" role="alert" data-testid="overdue-banner">
        <span>Your payment is overdue. Pay now to keep your workspace active.</span>
        <Link className="btn btn-small" to="/settings/plans">
          Go to billing
        </Link>
      </div>,
    );
  // settings/config flags (unset = on)
  const flags = plan?.feature_flags ?? { onboarding_cards: true, whats_new: true, phones_disconnected_banner: true };
  if (plan?.all_phones_disconnected && flags.phones_disconnected_banner)
    banners.push(
      <div key="phones" className="lc-banner lc-caution" role="status" data-testid="phones-disconnected-banner">
        <span>All your phones are disconnected. Messages are not being received.</span>
        <Link className="btn btn-small" to="/settings/phones">
          Reconnect phones
        </Link>
      </div>,
    );
  if (maint?.kind === 'banner' && dismissedIncident !== maint.id)
    banners.push(
      <div key="incident" className="lc-banner lc-info" role="status" data-testid="incident-banner">
        <span>{maint.message}</span>
        {link('status') && (
          <a href={link('status')!} target="_blank" rel="noreferrer">
            Status
          </a>
        )}
        <button
          type="button"
          className="icon-btn"
          aria-label="Dismiss"
          data-testid="incident-dismiss"
          onClick={() => {
            store(INCIDENT_KEY, maint.id);
            setDismissedIncident(maint.id);
          }}
        >
          ×
        </button>
      </div>,
    );

  // a refused paid feature (plan_feature from the API): the upgrade prompt, as PlanGate words it
  if (upgrade && !blocking)
    banners.push(
      <div key="upgrade" className="lc-banner lc-caution" role="alert" data-testid="upgrade-prompt">
        <span>
          {upgrade.feature ? FEATURE_LABELS[upgrade.feature] : 'This'} is not included in your plan. {admin ? `Upgrade to ${upgrade.plan} to use it.` : 'Ask an admin to upgrade the plan.'}
        </span>
        {admin && (
          <Link className="btn btn-small" to="/settings/plans/select" onClick={() => setUpgrade(null)} data-testid="upgrade-prompt-plans">
            See plans
          </Link>
        )}
        <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => setUpgrade(null)}>
          ×
        </button>
      </div>,
    );

  const gettingStarted = !!plan && !plan.phone_ever_connected && !blocking && !gsHidden && (pathname === '/chats' || pathname === '/dashboard');
  const hideGs = () => {
    store(`${GETTING_STARTED_KEY}:${org.org_id}`, '1');
    setGsHidden(true);
  };

  const side = (
    <>
      {trialText && (
        <div className="lc-trial" data-testid="trial-banner">
          <span className="lc-trial-text">{trialText}</span>
          <span className="lc-trial-actions">
            {admin && (
              <Link to="/settings/plans/select" className="lc-link">
                Upgrade
              </Link>
            )}
            {plan?.trial_extension_requested_at ? (
              <span className="muted small" data-testid="trial-extension-requested">
                Extension requested
              </span>
            ) : (
              <button type="button" className="lc-link" onClick={() => setExtensionOpen(true)} data-testid="trial-extend">
                Need more time?
              </button>
            )}
          </span>
        </div>
      )}
      <div className="lc-side-row">
        {flags.whats_new && (
        <button
          type="button"
          className="lc-whats-new"
          data-testid="whats-new"
          onClick={() => {
            setWhatsNewOpen(true);
            store(WHATS_NEW_KEY, latest);
            setSeenWhatsNew(latest);
          }}
        >
          What's New{seenWhatsNew !== latest && <span className="lc-dot" aria-label="new" />}
        </button>
        )}
        {oldBuild && (
          <button type="button" className="lc-old-build" data-testid="old-build" title={OLD_BUILD_MESSAGE} aria-label={OLD_BUILD_MESSAGE} onClick={() => window.location.reload()}>
            ⟳
          </button>
        )}
      </div>
    </>
  );

  return (
    <>
      {banners.length > 0 && <div className="lc-banners">{banners}</div>}
      {blocking}
      {slot && createPortal(side, slot)}
      {gettingStarted &&
        (phone ? (
          <div className="lc-banner lc-caution lc-mobile-nophones" data-testid="mobile-no-phones">
            {MOBILE_NO_PHONES}
          </div>
        ) : (
          flags.onboarding_cards && (
          <section className="lc-getting-started" data-testid="getting-started" aria-labelledby="gs-title">
            <div className="lc-gs-head">
              <h2 id="gs-title">Getting Started</h2>
              <button type="button" className="icon-btn" aria-label="Hide Getting Started" onClick={hideGs}>
                ×
              </button>
            </div>
            <p>Connect your first WhatsApp number to start receiving your customers' chats here.</p>
            <Link className="btn btn-primary" to="/settings/phones" data-testid="getting-started-connect">
              Connect a phone
            </Link>
            <ul className="lc-cards" data-testid="onboarding-cards">
              {ONBOARDING_CARDS.map((c) => (
                <li key={c.key}>
                  <Link to={c.to} className="lc-card">
                    <strong>{c.title}</strong>
                    <span>{c.body}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
          )
        ))}
      <Suspense fallback={null}>
        {extensionOpen && <TrialExtensionDialog onClose={() => setExtensionOpen(false)} />}
        {whatsNewOpen && <WhatsNewDialog onClose={() => setWhatsNewOpen(false)} />}
      </Suspense>
    </>
  );
}
