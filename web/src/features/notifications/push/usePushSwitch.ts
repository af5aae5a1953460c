/**
 * The switch of this device's kind (desktop → enable_notifications, mobile →
 * enable_mobile_notifications, spec §3), shared by /settings/notifications and
 * /settings/preferences so both show the same state (issue 49 §11: Preferences showed the stored
 * flag alone, on, while Notifications showed off): on only when the flag is set, this browser is
 * registered for this org and the permission is granted. Flipping it asks the browser first and
 * registers the device (spec §4, §7 Enabling); a blocked browser gets spec §8's message.
 */
import { useEffect, useState } from 'react';
import { NOTIFICATIONS_BLOCKED_MESSAGE } from '#shared/push/push.schemas.ts';
import type { UserPreferences } from '#shared/user/preferences.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useUserPrefs } from '../../../app/preferences.tsx';
import { useToast } from '../../../app/toast.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { currentDeviceId, deviceType, disablePush, enablePush, EnablePushError, PushBlockedError, pushSupported, storedPushOrgs } from './push-client.ts';

export type Permission = NotificationPermission | 'unsupported';
type NotificationKey = keyof UserPreferences['notifications'];
const permissionNow = (): Permission => (pushSupported() ? Notification.permission : 'unsupported');

export function usePushSwitch() {
  const { user, org } = useSession();
  const { prefs, savePrefs } = useUserPrefs();
  const toast = useToast();
  const kind = deviceType();
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const registeredHere = !!deviceId && storedPushOrgs().includes(org.org_id);

  useEffect(() => {
    void currentDeviceId().then(setDeviceId).catch(() => setDeviceId(null));
  }, []);

  const thisKey: NotificationKey = kind === 'mobile' ? 'enable_mobile_notifications' : 'enable_notifications';
  const otherKey: NotificationKey = kind === 'mobile' ? 'enable_notifications' : 'enable_mobile_notifications';
  const on = !!prefs?.notifications[thisKey] && registeredHere && permission === 'granted';

  const toggle = async (next: boolean) => {
    setBusy(true);
    setStatus(null);
    try {
      if (next) {
        const r = await enablePush(org.org_id, user.email);
        setDeviceId(r.deviceId);
        await savePrefs({ notifications: { [thisKey]: true } });
        setStatus('This device will get notifications.');
      } else {
        await disablePush(org.org_id, user.email);
        await savePrefs({ notifications: { [thisKey]: false } });
        setStatus('Notifications are off on this device.');
      }
    } catch (e) {
      if (e instanceof PushBlockedError) toast.show(NOTIFICATIONS_BLOCKED_MESSAGE, 'error');
      else toast.show(errorMessage(e), 'error');
      setStatus(e instanceof EnablePushError ? `Could not turn on notifications (${e.step}): ${e.message}` : errorMessage(e));
    } finally {
      setPermission(permissionNow());
      setBusy(false);
    }
  };

  return { kind, permission, deviceId, busy, status, thisKey, otherKey, on, toggle };
}
