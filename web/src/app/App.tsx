/**
 * Routes (spec §2): /login, /login/callback, the inbox at /chats and /chats/:chatId, /tickets
 * (?ticket=<id> opens one), /settings/tickets, /settings/labels, /settings/team, /settings/phones, /settings/permissions,
 * /settings/preferences,
 * /workspaces/new, /media (the media library), and every other sidebar section as an honest "not built
 * yet" page. Members denied a page by spec §6 see the Restricted page (PageGate); /settings/tickets and
 * /settings/labels are not gated yet (their pages show members a read-only view). Unknown paths fall
 * back to /chats.
 */
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
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
import { RequireAuth } from './session.tsx';
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

/** Settings pages that exist, linked from the settings placeholder. */
const SETTINGS_LINKS = [
  { to: '/settings/preferences', label: 'Preferences' },
  { to: '/settings/phones', label: 'Phones' },
  { to: '/settings/team', label: 'Team' },
  { to: '/settings/permissions', label: 'Permissions' },
  { to: '/settings/tickets', label: 'Ticket settings' },
  { to: '/settings/labels', label: 'Labels' },
];

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
          {NAV.filter((n) => !BUILT.has(n.path)).map((n) => (
            // spec §6: members denied a page (or an admin-only settings page) see the Restricted page
            <Route key={n.path} path={`${n.path}/*`} element={<PageGate title={n.label}><NotBuiltPage title={n.label} description={n.description} links={n.path === '/settings' ? SETTINGS_LINKS : []} /></PageGate>} />
          ))}
          <Route path="*" element={<Navigate to="/chats" replace />} />
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
