/**
 * Web push in the browser (issue 21; spec §4 Notification toggle, §7 Enabling): register the
 * service worker, ask permission, subscribe with the deployment's VAPID key, then register the
 * device (device id = the last path segment of the endpoint, spec §7) with the org. Loaded only by
 * the notification settings page and sign-out (a lazy chunk, not the app's first load).
 */
import { deviceIdOf, NOTIFICATIONS_BLOCKED_MESSAGE, type DeviceType } from '#shared/push/push.schemas.ts';
import { api } from '../../../lib/api.ts';

/** localStorage: the orgs this device registered with, so sign-out can unsubscribe from each (spec §4). */
const ORGS_KEY = 'chorus.push.orgs';

export class PushBlockedError extends Error {
  constructor() {
    super(NOTIFICATIONS_BLOCKED_MESSAGE);
  }
}

export const pushSupported = (): boolean => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** 'mobile' on phones and tablets (their user agents, or a touch-first small screen), else 'desktop' (spec §3 device_type). */
export function deviceType(): DeviceType {
  const ua = navigator.userAgent;
  if (/Android|iPhone|iPad|iPod|Mobile/i.test(ua)) return 'mobile';
  // iPadOS reports a Mac user agent: a touch screen gives it away
  if (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1) return 'mobile';
  // a touch-first small screen (also browsers that hide the platform from the user agent)
  if (window.matchMedia?.('(pointer: coarse)').matches && Math.min(screen.width, screen.height) < 768) return 'mobile';
  return 'desktop';
}

export function storedPushOrgs(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(ORGS_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function rememberOrg(orgId: string, on: boolean): void {
  const set = new Set(storedPushOrgs());
  if (on) set.add(orgId);
  else set.delete(orgId);
  try {
    localStorage.setItem(ORGS_KEY, JSON.stringify([...set]));
  } catch {
    /* storage unavailable */
  }
}

/** base64url -> bytes (the applicationServerKey). */
function keyBytes(b64url: string): Uint8Array<ArrayBuffer> {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** The Chorus service worker's registration (registers /sw.js if needed). */
export async function registration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register('/sw.js');
  return navigator.serviceWorker.ready;
}

/** This browser's push subscription, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) ?? null;
}

export async function currentDeviceId(): Promise<string | null> {
  const sub = await currentSubscription();
  return sub ? deviceIdOf(sub.endpoint) : null;
}

/** Which step of enabling failed (shown to the user, and asserted by the e2e test). */
export type EnableStep = 'service-worker' | 'permission' | 'subscribe' | 'register';

export class EnablePushError extends Error {
  constructor(
    readonly step: EnableStep,
    message: string,
  ) {
    super(message);
  }
}

/**
 * spec §7 Enabling: service worker, permission, subscribe, register the device with `orgId`.
 * @throws PushBlockedError when the browser blocks notifications (spec §8 message);
 *   EnablePushError naming the step that failed otherwise
 */
export async function enablePush(orgId: string, email: string): Promise<{ deviceId: string; deviceType: DeviceType }> {
  if (!pushSupported()) throw new EnablePushError('service-worker', 'This browser cannot show push notifications.');
  let reg: ServiceWorkerRegistration;
  try {
    reg = await registration();
  } catch (e) {
    throw new EnablePushError('service-worker', `The notification worker could not start: ${String((e as Error).message ?? e)}`);
  }
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') throw new PushBlockedError();
  if (permission !== 'granted') throw new EnablePushError('permission', 'Notifications were not allowed.');
  const key = await api.vapidPublicKey(orgId);
  let sub: PushSubscription;
  try {
    const existing = await reg.pushManager.getSubscription();
    const sameKey = existing?.options.applicationServerKey && btoa(String.fromCharCode(...new Uint8Array(existing.options.applicationServerKey))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') === key.replace(/=+$/, '');
    if (existing && !sameKey) await existing.unsubscribe();
    sub = existing && sameKey ? existing : await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  } catch (e) {
    throw new EnablePushError('subscribe', `The browser's push service did not answer: ${String((e as Error).message ?? e)}`);
  }
  const json = sub.toJSON() as { endpoint: string; expirationTime?: number | null; keys: { p256dh: string; auth: string } };
  const id = deviceIdOf(json.endpoint);
  const type = deviceType();
  try {
    await api.subscribePush(orgId, { email, subscription: { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: json.keys }, device_id: id, device_type: type });
  } catch (e) {
    throw new EnablePushError('register', String((e as Error).message ?? e));
  }
  rememberOrg(orgId, true);
  return { deviceId: id, deviceType: type };
}

/** Stop pushes to this device from `orgId` (spec §7 unsubscribe); the browser subscription stays for other orgs. */
export async function disablePush(orgId: string, email: string): Promise<void> {
  const id = await currentDeviceId();
  if (id) await api.unsubscribePush(orgId, { email, device_id: id, device_type: deviceType() });
  rememberOrg(orgId, false);
}

/**
 * Sign-out (spec §4): unsubscribe this device from every stored org (unsubscribe-all-for-device),
 * then drop the browser subscription. Failures are only logged (spec §8: they never block logout).
 */
export async function unsubscribeEverywhere(): Promise<void> {
  const sub = await currentSubscription().catch(() => null);
  const id = sub ? deviceIdOf(sub.endpoint) : null;
  if (id) {
    await Promise.all(storedPushOrgs().map((orgId) => api.unsubscribeAllForDevice(orgId, id).catch((e) => console.warn('unsubscribe-all-for-device failed', orgId, e))));
  }
  await sub?.unsubscribe().catch(() => undefined);
  try {
    localStorage.removeItem(ORGS_KEY);
  } catch {
    /* storage unavailable */
  }
}
