/**
 * Plan gates in the web app (spec §9: what Starter lacks), from the same entitlement data the API
 * enforces (`GET /plan` → `features`, shared/plan/entitlements.rules.ts). The API refuses the same
 * calls with 403 `plan_feature` (shared/plan/gate.ts, issue 42); lib/api.ts hands such refusals to
 * the lifecycle layer's upgrade prompt.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { FEATURE_LABELS, type Feature } from '#shared/plan/catalog.rules.ts';
import { useSession } from '../../app/session.tsx';
import { usePlan } from './api.ts';
import './plans.css';

/** `undefined` while the plan loads, then whether the org's plan has the feature. */
export function useHasFeature(feature: Feature): boolean | undefined {
  const { org } = useSession();
  const plan = usePlan(org.org_id);
  return plan.data ? plan.data.features.includes(feature) : undefined;
}

/**
 * Renders `children` when the plan has `feature`; otherwise an upgrade screen naming the feature,
 * with a link to /settings/plans/select (admins) or a note to ask an admin (members).
 * While the plan loads it renders the children (the API refuses anyway), so nothing flickers.
 */
export function PlanGate({ feature, children }: { feature: Feature; children: ReactNode }) {
  const { org } = useSession();
  const has = useHasFeature(feature);
  if (has !== false) return <>{children}</>;
  const label = FEATURE_LABELS[feature];
  return (
    <div className="page" data-testid="plan-gate" data-feature={feature}>
      <div className="page-body plan-gate">
        <h2>{label} is not included in your plan</h2>
        <p className="muted">
          {org.org_name} is on a plan without {label.toLowerCase()}. {org.role === 'admin' ? 'Upgrade to Pro or Enterprise to use it.' : 'Ask an admin to upgrade the plan.'}
        </p>
        {org.role === 'admin' && (
          <Link className="btn btn-primary" to="/settings/plans/select" data-testid="plan-gate-upgrade">
            See plans
          </Link>
        )}
      </div>
    </div>
  );
}
