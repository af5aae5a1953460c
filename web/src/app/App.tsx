/**
 * Routes (spec §2): /login, /login/callback, the inbox at /chats and /chats/:chatId, /tickets
 * (?ticket=<id> opens one), /settings/tickets, /settings/labels, /settings/team, /settings/phones, /settings/permissions,
 * /settings/preferences,
 * /workspaces/new, /media (the media library), /settings (the spec §2 menu groups), /phones (a
 * platform organization's phones), and every other sidebar section or settings page as an honest
 * "not built yet" page. Members denied a page by spec §6 see the Restricted page (PageGate);
 * /settings/tickets and /settings/labels are not gated yet (their pages show members a read-only
 * view). Paths the org may not open (layout/AppShell.tsx) and unknown paths fall back to /chats,
 * or /dashboard for a platform organization (shared/org/navigation.rules.ts).
 */
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { fallbackPath, isPlatform, SETTINGS_GROUPS } from '#shared/org/navigation.rules.ts';
import { LoginPage } from '../pages/LoginPage.tsx';
import { LoginCallbackPage } from '../pages/LoginCallbackPage.tsx';
import { NotBuiltPage } from '../pages/NotBuiltPage.tsx';
import { ChatsPage } from '../chats/ChatsPage.tsx';
import { TicketsPage } from '../tickets/TicketsPage.tsx';
import { TicketSettingsPage } from '../tickets/TicketSettingsPage.tsx';
import { LabelsPage } from '../settings/LabelsPage.tsx';
import { MediaPage } from '../media/MediaPage.tsx';
import { ListPage } from '../list/ListPage.tsx';
import { AppShell } from '../layout/AppShell.tsx';
import { NAV } from '../layout/nav.ts';
import { RequireAuth, useSession } from './session.tsx';
import { SettingsIndexPage } from '../settings/SettingsIndexPage.tsx';
import { PageGate } from './PageGate.tsx';
import { PermissionsPage } from '../settings/PermissionsPage.tsx';
import { TeamPage } from '../settings/TeamPage.tsx';
import { PhonesPage } from '../settings/PhonesPage.tsx';
import { PreferencesPage } from '../settings/PreferencesPage.tsx';
import { CreateWorkspacePage } from '../pages/CreateWorkspacePage.tsx';
import { useSessionExpiryHandler } from './sessionExpiry.ts';
import { ToastProvider } from './toast.tsx';

/** Sidebar sections with a page of their own (the rest show the not-built page). */
const BUILT = new Set(['/chats', '/tickets', '/media', '/list']);

/** Unknown paths: /chats for a normal organization, /dashboard for a platform one (spec §2). */
function OrgFallback() {
  const { org } = useSession();
  return <Navigate to={fallbackPath(org)} replace />;
}

/** A sidebar section not built yet; a platform organization's dashboard is about phones and queues (spec §2). */
function NotBuiltSection({ path, title, description }: { path: string; title: string; description: string }) {
  const { org } = useSession();
  const platformDashboard = path === '/dashboard' && isPlatform(org);
  return <NotBuiltPage title={title} description={platformDashboard ? 'the status of your phones and message queues' : description} />;
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
          <Route path="/settings/tickets" element={<TicketSettingsPage />} />
          <Route path="/settings/labels" element={<LabelsPage />} />
          <Route path="/media" element={<MediaPage />} />
          <Route path="/list" element={<ListPage />} />
          <Route path="/settings/permissions" element={<PageGate title="Permissions"><PermissionsPage /></PageGate>} />
          <Route path="/settings/team" element={<PageGate title="Team"><TeamPage /></PageGate>} />
          <Route path="/settings/phones" element={<PageGate title="Phones"><PhonesPage /></PageGate>} />
          <Route path="/settings/preferences" element={<PageGate title="Preferences"><PreferencesPage /></PageGate>} />
          <Route path="/workspaces/new" element={<CreateWorkspacePage />} />
          <Route path="/settings" element={<SettingsIndexPage />} />
          <Route path="/settings/*" element={<SettingsNotBuilt />} />
          <Route path="/phones" element={<PageGate title="Phones" path="/settings/phones"><PhonesPage /></PageGate>} />
          {NAV.filter((n) => !BUILT.has(n.path) && n.path !== '/settings').map((n) => (
            // spec §6: members denied a page (or an admin-only settings page) see the Restricted page
            <Route key={n.path} path={`${n.path}/*`} element={<PageGate title={n.label}><NotBuiltSection path={n.path} title={n.label} description={n.description} /></PageGate>} />
          ))}
          <Route path="*" element={<OrgFallback />} />
        </Route>
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <ToastProvider>
        <AppRoutes />
      </ToastProvider>
    </BrowserRouter>
  );
}
