/**
 * The browser's install prompt (issue 21, spec §2 install-app button): Chromium fires
 * `beforeinstallprompt` once, early; it is kept here (the app's first chunk) so the install button,
 * loaded later, can show it. Also registers the service worker at start (offline shell, push).
 */
interface InstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    deferred = e as InstallPromptEvent;
    listeners.forEach((l) => l());
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    listeners.forEach((l) => l());
  });
  if ('serviceWorker' in navigator && window.isSecureContext) {
    window.addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch((e) => console.warn('service worker registration failed', e)));
  }
}

/** The saved install prompt, if the browser offered one. */
export const installPrompt = (): InstallPromptEvent | null => deferred;
export const onInstallPromptChange = (fn: () => void): (() => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};
export function consumeInstallPrompt(): void {
  deferred = null;
  listeners.forEach((l) => l());
}

/** Already running as an installed app. */
export const isStandalone = (): boolean =>
  typeof window !== 'undefined' && (window.matchMedia?.('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true);

/** iPhone / iPad Safari: no install prompt, only Share → Add to Home Screen. */
export const isIos = (): boolean => /iPhone|iPad|iPod/.test(navigator.userAgent) || (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
