/**
 * /settings/integrations/all and /settings/integrations/browse (admins; issue 20): the catalogue of
 * integrations, what exists and what is connected. 'All' lists what can be set up today with its
 * state; 'Browse' adds the ones the product lists but that are not built yet.
 */
import { Link, NavLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../app/session.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../settings/index.ts';
import { integrationKeys, integrationsApi } from './api.ts';
import './integrations.css';

interface Entry {
  section: string;
  name: string;
  description: string;
  /** built in this product today */
  available: boolean;
}

/** Spec §2's integrations menu. */
export const CATALOGUE: Entry[] = [
  { section: 'api', name: 'API', description: 'REST API with scoped keys and an OpenAPI reference.', available: true },
  { section: 'mcp', name: 'MCP', description: 'Let AI assistants read and act on chats through the Model Context Protocol.', available: true },
  { section: 'webhooks', name: 'Webhooks', description: 'Send events to your systems, signed per Standard Webhooks.', available: true },
  { section: 'zapier', name: 'Zapier', description: 'Trigger Zaps from chats, messages, tickets and tasks.', available: true },
  { section: 'pabbly', name: 'Pabbly Connect', description: 'Trigger Pabbly workflows from Chorus events.', available: true },
  { section: 'slack', name: 'Slack', description: 'Post new chats, mentions and SLA breaches to a channel.', available: true },
  { section: 'hubspot', name: 'HubSpot', description: 'Sync contacts and conversations with HubSpot.', available: false },
  { section: 'gsheets', name: 'Google Sheets', description: 'Append chats and tickets to a spreadsheet.', available: false },
  { section: 'freshdesk', name: 'Freshdesk', description: 'Turn chats into Freshdesk tickets.', available: false },
  { section: 'zohodesk', name: 'Zoho Desk', description: 'Turn chats into Zoho Desk tickets.', available: false },
  { section: 'zohocrm', name: 'Zoho CRM', description: 'Sync contacts with Zoho CRM.', available: false },
  { section: 'salesforce', name: 'Salesforce', description: 'Sync contacts and cases with Salesforce.', available: false },
  { section: 'jira', name: 'Jira', description: 'Create Jira issues from messages.', available: false },
  { section: 'linear', name: 'Linear', description: 'Create Linear issues from messages.', available: false },
];

export function IntegrationsIndexPage({ browse }: { browse: boolean }) {
  const { org } = useSession();
  const keys = useQuery({ queryKey: integrationKeys.apiKeys(org.org_id), queryFn: () => integrationsApi.listKeys(org.org_id) });
  const activeKeys = keys.data?.filter((k) => !k.revoked_at).length ?? 0;
  const connected = (section: string) => (section === 'api' || section === 'mcp') && activeKeys > 0;
  const shown = browse ? CATALOGUE : CATALOGUE.filter((e) => e.available);
  return (
    <div className="page" data-testid="integrations-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Integrations" />
      </header>
      <div className="page-body page-body-wide settings-form">
        <nav className="token-row" aria-label="Integrations views">
          <NavLink to="/settings/integrations/all" className="btn">
            All
          </NavLink>
          <NavLink to="/settings/integrations/browse" className="btn">
            Browse
          </NavLink>
        </nav>
        <div className="integration-grid">
          {shown.map((e) => {
            const state = !e.available ? 'soon' : connected(e.section) ? 'connected' : 'available';
            const body = (
              <>
                <h3>{e.name}</h3>
                <p>{e.description}</p>
                <span className="integration-status" data-state={state}>
                  {state === 'connected' ? `Connected · ${activeKeys} active key${activeKeys === 1 ? '' : 's'}` : state === 'available' ? 'Set up' : 'Not available yet'}
                </span>
              </>
            );
            return e.available ? (
              <Link key={e.section} to={`/settings/integrations/${e.section}`} className="integration-card" data-testid={`integration-${e.section}`}>
                {body}
              </Link>
            ) : (
              <div key={e.section} className="integration-card" data-testid={`integration-${e.section}`}>
                {body}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
