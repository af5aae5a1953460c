/**
 * Organization setup (spec §5): 'Setup your organization' for a user's first workspace (full
 * screen after sign-in) and 'Create workspace' for another (from the organization switcher).
 * Validation runs on submit with the same schema as POST /api/orgs and shows spec §5's toast for
 * the first problem; a failed create shows 'Error in creating the org. Please try again' (or the
 * API's own reason, e.g. the free-trial workspace limit).
 */
import { useState, type FormEvent } from 'react';
import { CreateOrgInput, CURRENCIES, ORG_SETUP_MESSAGES, REFERRAL_SOURCES, SETUP_INPUT_MAX } from '#shared/org/org.schemas.ts';
import { ApiError, api } from '../../../lib/api.ts';
import { useToast } from '../../../app/toast.tsx';
import { CharCount } from '../../../components/ui/CharCount.tsx';
import '../team/team.css';

const REFERRAL_LABELS: Record<(typeof REFERRAL_SOURCES)[number], string> = {
  'facebook/instagram': 'Facebook / Instagram',
  google: 'Google',
  linkedin: 'LinkedIn',
  email: 'Email',
  'referral / word of mouth': 'Referral / word of mouth',
  Other: 'Other',
};

/** @param onCreated called with the new org's id and name once the API created it */
export function OrgSetupForm({ first, onCreated, onCancel }: { first: boolean; onCreated: (org: { org_id: string; org_name: string }) => void | Promise<void>; onCancel?: () => void }) {
  const toast = useToast();
  const [orgName, setOrgName] = useState('');
  const [contactName, setContactName] = useState('');
  const [phone, setPhone] = useState('');
  const [source, setSource] = useState('');
  const [currency, setCurrency] = useState<(typeof CURRENCIES)[number]>('USD');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const input = { org_name: orgName, contact_name: contactName || undefined, phone_number: phone, referralSource: source || undefined, currency };
    const parsed = CreateOrgInput.safeParse(input);
    if (!parsed.success) return toast.show(parsed.error.issues[0]?.message ?? ORG_SETUP_MESSAGES.createFailed, 'error');
    setBusy(true);
    try {
      const { org_id } = await api.createOrg({ ...input, org_name: parsed.data.org_name, referralSource: parsed.data.referralSource });
      toast.show(`${parsed.data.org_name} is ready`, 'success');
      await onCreated({ org_id, org_name: parsed.data.org_name });
    } catch (err) {
      // the API's reason when it is one meant for the user (403 free-trial limit, 400 validation)
      const mine = err instanceof ApiError && (err.status === 403 || err.status === 400);
      toast.show(mine ? err.message.replace(/^[a-zA-Z_.]+: /, '') : ORG_SETUP_MESSAGES.createFailed, 'error');
      console.error('organization setup failed', err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="setup-form" onSubmit={(e) => void submit(e)} noValidate data-testid="org-setup-form">
      <h1>{first ? 'Setup your organization' : 'Create workspace'}</h1>
      <label className="field">
        <span>Organization name</span>
        <input value={orgName} onChange={(e) => setOrgName(e.target.value)} autoComplete="organization" data-testid="setup-org-name" />
        {/* counted and refused by CreateOrgInput on submit, never cut (issue 49 §7) */}
        <CharCount value={orgName} max={SETUP_INPUT_MAX} field="Organization name" testId="setup-org-name-count" />
      </label>
      <label className="field">
        <span>Your name</span>
        <input value={contactName} onChange={(e) => setContactName(e.target.value)} autoComplete="name" data-testid="setup-contact-name" />
        <CharCount value={contactName} max={SETUP_INPUT_MAX} field="Contact name" testId="setup-contact-name-count" />
      </label>
      <label className="field">
        <span>Phone number</span>
        <input type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} placeholder="+91 98765 43210" autoComplete="tel" data-testid="setup-phone" />
      </label>
      <label className="field">
        <span>Where did you hear about us?</span>
        <select value={source} onChange={(e) => setSource(e.target.value)} data-testid="setup-referral">
          <option value="">Select…</option>
          {REFERRAL_SOURCES.map((s) => (
            <option key={s} value={s}>
              {REFERRAL_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Currency</span>
        <select value={currency} onChange={(e) => setCurrency(e.target.value as (typeof CURRENCIES)[number])} data-testid="setup-currency">
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <div className="settings-actions">
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="setup-submit">
          {busy ? 'Creating…' : first ? 'Create organization' : 'Create workspace'}
        </button>
      </div>
    </form>
  );
}
