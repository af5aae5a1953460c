/** The webhooks feature's public surface for other features: an endpoint's delivery log (/logs' Webhook deliveries tab). */
export { DeliveryLog } from './DeliveryLog.tsx';
