/**
 * /settings/plans (admins; issue 22): the current plan and its status, usage against the limits of
 * the entitlement module (phones with the spec §9 counter, members, bulk-message credits, rules),
 * the features, and the invoices from the payment provider. `?checkout=success` (back from the
 * hosted checkout) says so; the plan itself changes only when the provider's event arrives.
 */
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FEATURE_LABELS, PLANS, formatPrice, isCurrency } from '#shared/plan/catalog.rules.ts';
import { trialBannerText } from '#shared/plan/entitlements.rules.ts';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../settings/index.ts';
import { usePlan } from './api.ts';
import { toPlanState } from './LifecycleLayer.tsx';
import './plans.css';

const STATUS_TEXT: Record<string, string> = { trialing: 'Free trial', active: 'Active', past_due: 'Payment overdue', canceled: 'Inactive (payment failed)', ended: 'Ended' };

function Meter({ label, used, limit, testId }: { label: string; used: number | null; limit: number; testId: string }) {
  const pct = used === null || limit <= 0 ? 0 : Math.min(100, Math.round((used / limit) * 100));
  return (
    <div className="plan-meter" data-testid={testId}>
      <div className="plan-meter-head">
        <span>{label}</span>
        <strong>{used === null ? limit.toLocaleString('en-US') : `${used.toLocaleString('en-US')} / ${limit.toLocaleString('en-US')}`}</strong>
      </div>
      {used !== null && (
        <div className="plan-meter-bar" aria-hidden="true">
          <span style={{ width: `${pct}%` }} className={pct >= 100 ? 'full' : ''} />
        </div>
      )}
    </div>
  );
}

export function PlansPage() {
  const { org } = useSession();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const { data: plan, error, refetch } = usePlan(org.org_id);
  useEffect(() => {
    if (params.get('checkout') !== 'success') return;
    toast.show('Payment received. Your plan is updated.', 'success');
    void refetch();
    setParams({}, { replace: true });
  }, [params, setParams, toast, refetch]);

  const fmtDate = (ms: number) => new Date(ms).toLocaleDateString('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
  return (
    <div className="page" data-testid="plans-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Plans and Usage" />
      </header>
      <div className="page-body settings-form">
        {!plan && !error && <p className="muted">Loading your plan…</p>}
        {error && (
          <div className="inline-state" role="alert">
            <span>Could not load your plan: {error.message}</span>
          </div>
        )}
        {plan && (
          <>
            <section className="settings-section plan-current" aria-labelledby="plan-title">
              <div className="plan-current-head">
                <div>
                  <h2 id="plan-title" data-testid="plan-name">
                    {plan.plan.name}
                    {plan.is_free_trial && plan.subscription_status === 'trialing' ? ' (trial)' : ''}
                  </h2>
                  <p className="muted small" data-testid="plan-status">
                    {STATUS_TEXT[plan.subscription_status]}
                    {plan.subscription_status === 'trialing' && ` · ${trialBannerText(toPlanState(plan), Date.now())}`}
                    {plan.org_plan?.current_period_end ? ` · renews ${fmtDate(plan.org_plan.current_period_end * 1000)}` : ''}
                    {plan.billing_frequency ? ` · billed ${plan.billing_frequency}` : ''}
                  </p>
                </div>
                <Link className="btn btn-primary" to="/settings/plans/select" data-testid="change-plan">
                  {plan.subscription_status === 'trialing' ? 'Choose a plan' : 'Change plan'}
                </Link>
              </div>
              <div className="plan-meters">
                <Meter label={`Phones (connected ${plan.phone_counter})`} used={plan.usage.phones} limit={plan.limits.phones} testId="usage-phones" />
                <Meter label="Team members" used={plan.usage.members} limit={plan.limits.members} testId="usage-members" />
                <Meter label="Bulk-message credits per month" used={null} limit={plan.limits.broadcast_credits} testId="usage-credits" />
                <Meter label="Automation rules" used={null} limit={plan.limits.rules} testId="usage-rules" />
              </div>
              <p className="muted small">
                {plan.licences} licence{plan.licences === 1 ? '' : 's'}
                {plan.addons.phones ? ` · ${plan.addons.phones} extra phone${plan.addons.phones === 1 ? '' : 's'}` : ''}
                {plan.addons.users ? ` · ${plan.addons.users} extra user${plan.addons.users === 1 ? '' : 's'}` : ''}
              </p>
            </section>
            <section className="settings-section" aria-labelledby="features-title">
              <h2 id="features-title">Features</h2>
              <ul className="plan-features" data-testid="plan-features">
                {PLANS.enterprise.features.map((f) => (
                  <li key={f} className={plan.features.includes(f) ? 'on' : 'off'}>
                    <span aria-hidden="true">{plan.features.includes(f) ? '✓' : '–'}</span> {FEATURE_LABELS[f]}
                    {!plan.features.includes(f) && <span className="visually-hidden"> (not in your plan)</span>}
                  </li>
                ))}
              </ul>
            </section>
            <section className="settings-section" aria-labelledby="invoices-title">
              <h2 id="invoices-title">Invoices</h2>
              {plan.invoices.length === 0 ? (
                <p className="muted" data-testid="no-invoices">
                  No invoices yet.
                </p>
              ) : (
                <table className="plan-invoices" data-testid="invoices">
                  <thead>
                    <tr>
                      <th>Date</th>
                      <th>Number</th>
                      <th>Amount</th>
                      <th>Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {plan.invoices.map((i) => (
                      <tr key={i.id}>
                        <td>{fmtDate(i.created * 1000)}</td>
                        <td>{i.url ? <a href={i.url} target="_blank" rel="noreferrer">{i.number ?? i.id}</a> : (i.number ?? i.id)}</td>
                        <td>{isCurrency(i.currency) ? formatPrice(i.amount, i.currency, 'monthly').replace('/mo', '') : `${i.amount / 100} ${i.currency}`}</td>
                        <td>{i.status}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </>
        )}
      </div>
    </div>
  );
}
