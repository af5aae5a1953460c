/** What other features use of notifications (issue 21): the push client, the install button, the chime. */
export { currentDeviceId, deviceType, disablePush, enablePush, EnablePushError, PushBlockedError, pushSupported, storedPushOrgs } from './push/push-client.ts';
export { InstallAppButton } from './install/InstallAppButton.tsx';
export { playMessageSound } from './sound.ts';
export { usePushSwitch } from './push/usePushSwitch.ts';
