import { describe, expect, it } from 'vitest';
import { SETTINGS_GROUPS } from '#shared/org/navigation.rules.ts';
import { BUILT_SETTINGS } from './built-settings.ts';
// the routes' source as text (Vite's ?raw), so the test reads App.tsx without rendering it
import app from '../../app/App.tsx?raw';

/** The /settings/<section> pages App.tsx routes to a page of their own (not the not-built catch-all). */
const routed = new Set([...app.matchAll(/<Route path="\/settings\/([a-z0-9/-]+)" element=\{(?!<Navigate)/g)].map((m) => m[1]!));

describe('settings hub: "not built yet" only where there is no page', () => {
  it('every settings menu entry with a route of its own counts as built', () => {
    expect(routed.size).toBeGreaterThan(20); // the pattern still finds App.tsx's routes
    const menu = SETTINGS_GROUPS.flatMap((g) => g.entries.map((e) => e.section));
    const missing = menu.filter((s) => routed.has(s) && !BUILT_SETTINGS.has(s));
    expect(missing).toEqual([]);
    // the four of issue 49 §4 in particular
    for (const s of ['plans', 'general', 'config', 'library']) expect(BUILT_SETTINGS.has(s)).toBe(true);
  });

  it('nothing counts as built without a route', () => {
    expect([...BUILT_SETTINGS].filter((s) => !routed.has(s))).toEqual([]);
  });
});
