/**
 * Sidebar sections built after the first release (issue 19: /dashboard, /analytics, /logs), loaded
 * as one small chunk so the entry chunk (which /chats pays for) carries one dynamic import instead
 * of one per page; each page is its own further chunk (analytics' charts one more).
 */
import { lazy, type ComponentType } from 'react';

const PAGES: Record<string, ComponentType> = {
  '/dashboard': lazy(() => import('../features/dashboard/DashboardPage.tsx').then((m) => ({ default: m.DashboardPage }))),
  '/analytics': lazy(() => import('../features/analytics/AnalyticsPage.tsx').then((m) => ({ default: m.AnalyticsPage }))),
  '/logs': lazy(() => import('../features/logs/LogsPage.tsx').then((m) => ({ default: m.LogsPage }))),
};

/** The page of a section path, or `fallback` when it has none yet. */
export function SectionPage({ path, fallback }: { path: string; fallback: React.ReactNode }) {
  const Page = PAGES[path];
  return Page ? <Page /> : <>{fallback}</>;
}

/** The section paths that have a page here. */
export const SECTION_PATHS: readonly string[] = Object.keys(PAGES);
export default SectionPage;
