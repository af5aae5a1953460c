/**
 * Routes (spec §2): /login, /login/callback, the inbox at /chats and /chats/:chatId, /tickets
 * (?ticket=<id> opens one), /settings/tickets, /settings/labels, /settings/team, /settings/phones, /settings/permissions,
 * /settings/preferences,
 * /workspaces/new, /media (the media library), /settings (the spec §2 menu groups), /phones (a
 * platform organization's phones), and every other sidebar section or settings page as an honest
 * "not built yet" page. Members denied a page by spec §6 see the Restricted page (PageGate),
 * including every settings page but phones, scheduled, preferences and notifications (spec §2).
 * Paths the org may not open (layout/AppShell.tsx) and unknown paths fall back to /chats, or
 * /dashboard for a platform organization (shared/org/navigation.rules.ts).
 */
import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { fallbackPath, SETTINGS_GROUPS } from '#shared/org/navigation.rules.ts';
import { NotBuiltPage } from './pages/NotBuiltPage.tsx';
import { FullScreenMessage } from './pages/FullScreenMessage.tsx';
import { AppShell } from './shell/AppShell.tsx';
import { NAV } from './shell/nav.ts';
import { RequireAuth, useSession } from './session.tsx';
import { PageGate } from './PageGate.tsx';
import { useSessionExpiryHandler } from './sessionExpiry.ts';
import { ToastProvider } from './toast.tsx';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';

// Each page is its own chunk (React.lazy): the first screen loads the shell and one page only.
// The Suspense boundaries are in AppShell (around the page, so the sidebar stays) and below.
const LoginPage = lazy(() => import('../features/auth/components/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
const LoginCallbackPage = lazy(() => import('../features/auth/components/LoginCallbackPage.tsx').then((m) => ({ default: m.LoginCallbackPage })));
const ChatsPage = lazy(() => import('../features/chats/components/ChatsPage.tsx').then((m) => ({ default: m.ChatsPage })));
const TicketsPage = lazy(() => import('../features/tickets/components/TicketsPage.tsx').then((m) => ({ default: m.TicketsPage })));
const TicketSettingsPage = lazy(() => import('../features/settings/tickets/TicketSettingsPage.tsx').then((m) => ({ default: m.TicketSettingsPage })));
const LabelsPage = lazy(() => import('../features/settings/labels/LabelsPage.tsx').then((m) => ({ default: m.LabelsPage })));
const MediaPage = lazy(() => import('../features/media/components/MediaPage.tsx').then((m) => ({ default: m.MediaPage })));
const ListPage = lazy(() => import('../features/list/components/ListPage.tsx').then((m) => ({ default: m.ListPage })));
const SettingsIndexPage = lazy(() => import('../features/settings/components/SettingsIndexPage.tsx').then((m) => ({ default: m.SettingsIndexPage })));
const PermissionsPage = lazy(() => import('../features/settings/permissions/PermissionsPage.tsx').then((m) => ({ default: m.PermissionsPage })));
const TeamPage = lazy(() => import('../features/settings/team/TeamPage.tsx').then((m) => ({ default: m.TeamPage })));
const PhonesPage = lazy(() => import('../features/settings/phones/PhonesPage.tsx').then((m) => ({ default: m.PhonesPage })));
const PreferencesPage = lazy(() => import('../features/settings/preferences/PreferencesPage.tsx').then((m) => ({ default: m.PreferencesPage })));
const NotificationSettingsPage = lazy(() => import('../features/settings/notifications/NotificationSettingsPage.tsx').then((m) => ({ default: m.NotificationSettingsPage })));
const CreateWorkspacePage = lazy(() => import('../features/settings/workspace/CreateWorkspacePage.tsx').then((m) => ({ default: m.CreateWorkspacePage })));
// issue 20: integrations (catalogue, API keys and reference, MCP)
const IntegrationsIndexPage = lazy(() => import('../features/integrations/IntegrationsIndexPage.tsx').then((m) => ({ default: m.IntegrationsIndexPage })));
const ApiKeysPage = lazy(() => import('../features/integrations/ApiKeysPage.tsx').then((m) => ({ default: m.ApiKeysPage })));
const ApiReferencePage = lazy(() => import('../features/integrations/ApiReferencePage.tsx').then((m) => ({ default: m.ApiReferencePage })));
const McpPage = lazy(() => import('../features/integrations/McpPage.tsx').then((m) => ({ default: m.McpPage })));
// issue 20 (hooks): outbound webhooks, Zapier, Pabbly, Slack settings
const WebhooksPage = lazy(() => import('../features/webhooks/WebhooksPage.tsx').then((m) => ({ default: m.WebhooksPage })));
const ZapierPage = lazy(() => import('../features/webhooks/RestHookPage.tsx').then((m) => ({ default: m.ZapierPage })));
const PabblyPage = lazy(() => import('../features/webhooks/RestHookPage.tsx').then((m) => ({ default: m.PabblyPage })));
const SlackPage = lazy(() => import('../features/webhooks/SlackPage.tsx').then((m) => ({ default: m.SlackPage })));
// issue 18: the AI agent
const AiPage = lazy(() => import('../features/ai/components/AiPage.tsx').then((m) => ({ default: m.AiPage })));

// issue 22: plans and usage, plan selection
const PlansPage = lazy(() => import('../features/plans/PlansPage.tsx').then((m) => ({ default: m.PlansPage })));
const SelectPlanPage = lazy(() => import('../features/plans/SelectPlanPage.tsx').then((m) => ({ default: m.SelectPlanPage })));
// issue 22 (plans2): organization settings general, config, media library (admins; members: Restricted)
const GeneralSettingsPage = lazy(() => import('../features/settings/general/GeneralSettingsPage.tsx').then((m) => ({ default: m.GeneralSettingsPage })));
const ConfigSettingsPage = lazy(() => import('../features/settings/config/ConfigSettingsPage.tsx').then((m) => ({ default: m.ConfigSettingsPage })));
const LibrarySettingsPage = lazy(() => import('../features/settings/library/LibrarySettingsPage.tsx').then((m) => ({ default: m.LibrarySettingsPage })));
// issue 19: /dashboard, /analytics and /logs, through one small chunk (app/SectionPages.tsx), each behind its PageGate below
const SectionPage = lazy(() => import('./SectionPages.tsx'));
// issue 15: contacts, custom properties, quick replies
const ContactsPage = lazy(() => import('../features/contacts/components/ContactsPage.tsx').then((m) => ({ default: m.ContactsPage })));
const PropertiesPage = lazy(() => import('../features/settings/properties/PropertiesPage.tsx').then((m) => ({ default: m.PropertiesPage })));
// issue 15 (contacts3): quick replies
const RepliesPage = lazy(() => import('../features/settings/replies/RepliesPage.tsx').then((m) => ({ default: m.RepliesPage })));
// issue 17: automation rules
// issue 16 (part A): WhatsApp message templates
const ScheduledPage = lazy(() => import('../features/scheduled/ScheduledPage.tsx').then((m) => ({ default: m.ScheduledPage })));
const TemplatesPage = lazy(() => import('../features/templates/TemplatesPage.tsx').then((m) => ({ default: m.TemplatesPage })));
const RulesPage = lazy(() => import('../features/rules/RulesPage.tsx').then((m) => ({ default: m.RulesPage })));
// issue 16: broadcasts
const BroadcastPage = lazy(() => import('../features/broadcast/BroadcastPage.tsx').then((m) => ({ default: m.BroadcastPage })));
// issue 15 (groups): group templates
const GroupTemplatesPage = lazy(() => import('../features/settings/group-templates/GroupTemplatesPage.tsx').then((m) => ({ default: m.GroupTemplatesPage })));

/** Sidebar sections with a page of their own (the rest show the not-built page). */
const BUILT = new Set(['/chats', '/tickets', '/media', '/list', '/ai', /* issue 15 */ '/contacts', /* issue 17 */ '/rules', /* issue 16 */ '/broadcast']);

/** Unknown paths: /chats for a normal organization, /dashboard for a platform one (spec §2). */
function OrgFallback() {
  const { org } = useSession();
  return <Navigate to={fallbackPath(org)} replace />;
}

/** A settings page of the spec §2 menu that is not built yet (members: Restricted where spec §6 says so). */
function SettingsNotBuilt() {
  const { pathname } = useLocation();
  const section = pathname.replace(/^\/settings\/?/, '').replace(/\/$/, '');
  const entry = SETTINGS_GROUPS.flatMap((g) => g.entries).find((e) => e.section === section);
  const title = entry ? `Settings / ${entry.label}` : 'Settings';
  return (
    <PageGate title={title}>
      <NotBuiltPage title={title} description={entry ? `the ${entry.label} settings` : 'this settings page'} links={[{ to: '/settings', label: 'all settings' }]} />
    </PageGate>
  );
}

function AppRoutes() {
  useSessionExpiryHandler();
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/login/callback" element={<LoginCallbackPage />} />
      <Route element={<RequireAuth />}>
        <Route element={<AppShell />}>
          <Route path="/chats/:chatId?" element={<ChatsPage />} />
          <Route path="/tickets" element={<TicketsPage />} />
          {/* spec §2: only phones, scheduled, preferences and notifications are open to members (issue 49 §15) */}
          <Route path="/settings/tickets" element={<PageGate title="Tickets"><TicketSettingsPage /></PageGate>} />
          <Route path="/settings/labels" element={<PageGate title="Labels"><LabelsPage /></PageGate>} />
          <Route path="/media" element={<MediaPage />} />
          <Route path="/list" element={<ListPage />} />
          <Route path="/settings/permissions" element={<PageGate title="Permissions"><PermissionsPage /></PageGate>} />
          <Route path="/settings/team" element={<PageGate title="Team"><TeamPage /></PageGate>} />
          <Route path="/settings/phones" element={<PageGate title="Phones"><PhonesPage /></PageGate>} />
          <Route path="/settings/preferences" element={<PageGate title="Preferences"><PreferencesPage /></PageGate>} />
          <Route path="/settings/notifications" element={<PageGate title="Notifications"><NotificationSettingsPage /></PageGate>} />
          <Route path="/workspaces/new" element={<CreateWorkspacePage />} />
          {/* issue 20 (hooks): admin-only integrations pages (members: Restricted) */}
          <Route path="/settings/integrations/webhooks" element={<PageGate title="Webhooks"><WebhooksPage /></PageGate>} />
          <Route path="/settings/integrations/zapier" element={<PageGate title="Zapier"><ZapierPage /></PageGate>} />
          <Route path="/settings/integrations/pabbly" element={<PageGate title="Pabbly"><PabblyPage /></PageGate>} />
          <Route path="/settings/integrations/slack" element={<PageGate title="Slack"><SlackPage /></PageGate>} />
          {/* issue 17: automation rules (admins, or members when member_permissions.rules allows) */}
          <Route path="/rules" element={<PageGate title="Rules"><RulesPage /></PageGate>} />
          {/* issue 16: broadcasts (admins, or members when member_permissions.bulk_message allows) */}
          <Route path="/broadcast" element={<PageGate title="Broadcast"><BroadcastPage /></PageGate>} />
          <Route path="/settings" element={<SettingsIndexPage />} />
          {/* issue 20: integrations catalogue, API keys and reference, MCP */}
          <Route path="/settings/integrations" element={<Navigate to="/settings/integrations/all" replace />} />
          <Route path="/settings/integrations/all" element={<PageGate title="Integrations"><IntegrationsIndexPage browse={false} /></PageGate>} />
          <Route path="/settings/integrations/browse" element={<PageGate title="Integrations"><IntegrationsIndexPage browse /></PageGate>} />
          <Route path="/settings/integrations/api" element={<PageGate title="API"><ApiKeysPage /></PageGate>} />
          <Route path="/settings/integrations/api/reference" element={<PageGate title="API reference" path="/settings/integrations/api"><ApiReferencePage /></PageGate>} />
          <Route path="/settings/integrations/mcp" element={<PageGate title="MCP"><McpPage /></PageGate>} />
          {/* issue 22: plans and usage (admins; members: Restricted) */}
          <Route path="/settings/plans" element={<PageGate title="Plans and Usage"><PlansPage /></PageGate>} />
          <Route path="/settings/plans/select" element={<PageGate title="Choose a plan" path="/settings/plans"><SelectPlanPage /></PageGate>} />
          {/* issue 22 (plans2): organization settings (admins; members: Restricted, spec §2/§6) */}
          <Route path="/settings/general" element={<PageGate title="General"><GeneralSettingsPage /></PageGate>} />
          <Route path="/settings/config" element={<PageGate title="Config"><ConfigSettingsPage /></PageGate>} />
          <Route path="/settings/library" element={<PageGate title="Media Library"><LibrarySettingsPage /></PageGate>} />
          {/* issue 15: contacts (member_permissions.contacts), custom properties (admins) */}
          <Route path="/contacts" element={<PageGate title="Contacts"><ContactsPage /></PageGate>} />
          <Route path="/settings/properties" element={<PageGate title="Custom Properties"><PropertiesPage /></PageGate>} />
          {/* issue 16 (part A): message templates of the Cloud API numbers (admins; members: Restricted, spec §2 — they still pick templates in the composer) */}
          <Route path="/settings/templates" element={<PageGate title="Templates"><TemplatesPage /></PageGate>} />
          {/* issue 16 (part A): scheduled messages (spec §2: open to members) */}
          <Route path="/settings/scheduled" element={<PageGate title="Scheduled"><ScheduledPage /></PageGate>} />
          {/* issue 15 (contacts3): quick replies (admins, by the settings gate) */}
          <Route path="/settings/replies" element={<PageGate title="Quick Replies"><RepliesPage /></PageGate>} />
          {/* issue 15 (groups): group templates (admins, by the settings gate) */}
          <Route path="/settings/group-templates" element={<PageGate title="Group Templates"><GroupTemplatesPage /></PageGate>} />
          <Route path="/settings/*" element={<SettingsNotBuilt />} />
          {/* issue 18: the AI agent (members read and test; admins change) */}
          <Route path="/ai" element={<PageGate title="AI"><AiPage /></PageGate>} />
          <Route path="/phones" element={<PageGate title="Phones" path="/settings/phones"><PhonesPage /></PageGate>} />
          {NAV.filter((n) => !BUILT.has(n.path) && n.path !== '/settings').map((n) => {
            // spec §6: members denied a page (or an admin-only settings page) see the Restricted page
            return <Route key={n.path} path={`${n.path}/*`} element={<PageGate title={n.label}><SectionPage path={n.path} fallback={<NotBuiltPage title={n.label} description={n.description} />} /></PageGate>} />;
          })}
          <Route path="*" element={<OrgFallback />} />
        </Route>
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <ToastProvider>
          {/* the sign-in pages load outside the shell */}
          <Suspense fallback={<FullScreenMessage title="Loading Chorus…" busy />}>
            <AppRoutes />
          </Suspense>
        </ToastProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
