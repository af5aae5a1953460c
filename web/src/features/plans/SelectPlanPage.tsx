/**
 * /settings/plans/select (admins; issue 22): the three tiers with their prices, with the spec §9
 * frequency switch (yearly, monthly, weekly; Enterprise is custom) and currency switch (INR, BRL,
 * USD). Choosing Starter or Pro opens the hosted checkout (POST /plan/checkout) for the licences
 * given (at least the members) and, on tiers that sell them (spec §9: Pro), the extra phones on top
 * of the included ones (issue 49 item 14: paid through the billing port, the phone limit follows);
 * Enterprise is a conversation with sales.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CURRENCIES, FEATURE_LABELS, PLANS, addonPhoneUnit, formatPrice, isCurrency, type Currency, type Frequency } from '#shared/plan/catalog.rules.ts';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { SettingsTitle } from '../settings/index.ts';
import { planApi, usePlan } from './api.ts';
import { link } from './links.ts';
import './plans.css';

const FREQS: Array<Exclude<Frequency, 'custom'>> = ['yearly', 'monthly', 'weekly'];

export function SelectPlanPage() {
  const { org } = useSession();
  const toast = useToast();
  const navigate = useNavigate();
  const { data: plan } = usePlan(org.org_id);
  const [frequency, setFrequency] = useState<Exclude<Frequency, 'custom'>>('monthly');
  const [currencyChoice, setCurrency] = useState<Currency | null>(null);
  const currency: Currency = currencyChoice ?? (plan && isCurrency(plan.currency) ? plan.currency : 'USD');
  const [licencesInput, setLicences] = useState<number | null>(null);
  const minLicences = Math.max(1, plan?.usage.members ?? 1);
  const licences = Math.max(licencesInput ?? minLicences, 1);
  const [phonesInput, setPhones] = useState<number | null>(null);
  // extra phones: what is paid for now until the admin changes it (at most 100, the checkout's bound)
  const extraPhones = Math.min(100, Math.max(0, phonesInput ?? plan?.addons.phones ?? 0));
  const [busy, setBusy] = useState<string | null>(null);

  async function choose(planId: 'starter' | 'pro') {
    setBusy(planId);
    try {
      const { url } = await planApi.checkout(org.org_id, { plan_id: planId, frequency, currency, licences, addon_phones: PLANS[planId].addons.phones ? extraPhones : 0 });
      // the provider's hosted page, or (the local stand-in) a path of this app
      if (url.startsWith('/')) navigate(url);
      else window.location.assign(url);
    } catch (e) {
      toast.show(errorMessage(e), 'error');
      setBusy(null);
    }
  }

  return (
    <div className="page" data-testid="select-plan-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Choose a plan" />
      </header>
      <div className="page-body">
        <div className="plan-switches">
          <div role="radiogroup" aria-label="Billing frequency" className="seg" data-testid="frequency-switch">
            {FREQS.map((f) => (
              <button key={f} type="button" role="radio" aria-checked={frequency === f} className={frequency === f ? 'on' : ''} onClick={() => setFrequency(f)} data-testid={`freq-${f}`}>
                {f[0].toUpperCase() + f.slice(1)}
              </button>
            ))}
          </div>
          <div role="radiogroup" aria-label="Currency" className="seg" data-testid="currency-switch">
            {CURRENCIES.map((c) => (
              <button key={c} type="button" role="radio" aria-checked={currency === c} className={currency === c ? 'on' : ''} onClick={() => setCurrency(c)} data-testid={`cur-${c}`}>
                {c}
              </button>
            ))}
          </div>
          <label className="plan-licences">
            Licences (users)
            <input type="number" min={minLicences} max={500} value={licences} onChange={(e) => setLicences(Math.max(1, Number(e.target.value) || 1))} data-testid="licences" />
          </label>
        </div>
        <div className="plan-cards">
          {(['starter', 'pro', 'enterprise'] as const).map((id) => {
            const p = PLANS[id];
            const price = id === 'enterprise' ? 'Custom' : formatPrice(p.prices[frequency]![currency], currency, frequency);
            const sellsPhones = id !== 'enterprise' && p.addons.phones;
            // the plan paid for now, unless the extra phones change
            const current = plan?.plan.id === id && plan.subscription_status === 'active' && (!sellsPhones || extraPhones === plan.addons.phones);
            return (
              <article key={id} className={`plan-card ${id === 'pro' ? 'featured' : ''}`} data-testid={`plan-card-${id}`}>
                <h2>{p.name}</h2>
                <p className="plan-price" data-testid={`price-${id}`}>
                  {price}
                  {id !== 'enterprise' && <small> per user</small>}
                </p>
                {frequency === 'yearly' && id !== 'enterprise' && <p className="muted small">billed yearly</p>}
                <p className="muted small">
                  {p.phones} phone{p.phones === 1 ? '' : 's'} included{p.addons.phones ? ', more as add-ons' : ''}
                  {p.addons.users ? '; extra users as add-ons' : ''}
                </p>
                {sellsPhones && (
                  <div className="plan-addon-phones" data-testid={`addon-phones-${id}`}>
                    <label className="plan-licences">
                      Extra phones
                      <input type="number" min={0} max={100} value={extraPhones} onChange={(e) => setPhones(Math.min(100, Math.max(0, Math.floor(Number(e.target.value) || 0))))} data-testid={`addon-phones-input-${id}`} />
                    </label>
                    <p className="muted small" data-testid={`addon-phones-total-${id}`}>
                      {formatPrice(addonPhoneUnit(currency, frequency), currency, frequency)} per extra phone; {p.phones + extraPhones} phone{p.phones + extraPhones === 1 ? '' : 's'} in all
                    </p>
                  </div>
                )}
                <ul className="plan-features">
                  {p.features.length === 0 && <li className="off">Shared inbox, tickets, tasks, labels, quick replies</li>}
                  {p.features.map((f) => (
                    <li key={f} className="on">
                      <span aria-hidden="true">✓</span> {FEATURE_LABELS[f]}
                    </li>
                  ))}
                </ul>
                {id === 'enterprise' ? (
                  link('sales') && (
                    <a className="btn" href={link('sales')!} data-testid="contact-sales">
                      Contact sales
                    </a>
                  )
                ) : (
                  <button type="button" className={`btn ${id === 'pro' ? 'btn-primary' : ''}`} disabled={busy !== null || current || org.role !== 'admin'} onClick={() => void choose(id)} data-testid={`choose-${id}`}>
                    {current ? 'Current plan' : busy === id ? 'Opening checkout…' : `Choose ${p.name}`}
                  </button>
                )}
              </article>
            );
          })}
        </div>
      </div>
    </div>
  );
}
