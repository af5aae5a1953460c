/** issue 16 item 6: scheduled messages — the composer's Schedule dialog (lazy, its own chunk). The page is routed by app/App.tsx (lazy). */
import { lazy } from 'react';

export const ScheduleDialog = lazy(() => import('./ScheduleDialog.tsx').then((m) => ({ default: m.ScheduleDialog })));
