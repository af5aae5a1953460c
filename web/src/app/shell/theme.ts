/**
 * The colour theme: System (follow the OS), Light or Dark, remembered in localStorage and applied
 * as <html data-theme>; tokens.css does the rest. Applied when this module loads, before the
 * first render, so the page never flashes the other theme.
 */
import { useCallback, useSyncExternalStore } from 'react';

export type ThemePref = 'system' | 'light' | 'dark';
export const THEME_PREFS: ReadonlyArray<{ value: ThemePref; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const KEY = 'chorus.theme';
const listeners = new Set<() => void>();

/** The stored choice ('system' when none or unreadable). */
export function readTheme(): ThemePref {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Put `pref` on the page (System removes the attribute so prefers-color-scheme decides). */
export function applyTheme(pref: ThemePref): void {
  const el = document.documentElement;
  if (pref === 'system') delete el.dataset.theme;
  else el.dataset.theme = pref;
}

/** Store and apply `pref`, and tell every {@link useTheme}. */
export function setTheme(pref: ThemePref): void {
  try {
    if (pref === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, pref);
  } catch {
    // private mode: the choice lasts for this page only
  }
  applyTheme(pref);
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  // another tab changed it
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return;
    applyTheme(readTheme());
    l();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(l);
    window.removeEventListener('storage', onStorage);
  };
};

/** The current choice and a setter. */
export function useTheme(): [ThemePref, (pref: ThemePref) => void] {
  const pref = useSyncExternalStore(subscribe, readTheme, () => 'system' as ThemePref);
  return [pref, useCallback((p: ThemePref) => setTheme(p), [])];
}

applyTheme(readTheme());
