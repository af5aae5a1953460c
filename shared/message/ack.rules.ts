import { ACK } from './message.schemas.ts';

/**
 * Delivery status rules (whatsapp-protocols.md A.4: ordering is not guaranteed; apply
 * statuses monotonically sent < delivered < read < played, `failed` terminal).
 */

/** Cloud API status -> ack (WhatsApp Web scale). `deleted`/`warning` carry no ack change. */
export function statusToAck(status: string): number | undefined {
  switch (status) {
    case 'sent':
      return ACK.SENT;
    case 'delivered':
      return ACK.DELIVERED;
    case 'read':
      return ACK.READ;
    case 'played':
      return ACK.PLAYED;
    case 'failed':
      return ACK.FAILED;
    default:
      return undefined;
  }
}

/**
 * The ack after applying an incoming one.
 * - failed stays failed;
 * - a failure after the message was delivered is ignored (it cannot un-deliver);
 * - otherwise acks only move forward.
 */
export function nextAck(current: number, incoming: number): number {
  if (current === ACK.FAILED) return current;
  if (incoming === ACK.FAILED) return current >= ACK.DELIVERED ? current : ACK.FAILED;
  return Math.max(current, incoming);
}

/** delivery_info of a 1:1 message for an ack (spec §3 {read_count, delivered_count, pending}). */
export function deliveryInfoFor(ack: number): { read_count: number; delivered_count: number; pending: number } {
  return {
    read_count: ack >= ACK.READ ? 1 : 0,
    delivered_count: ack >= ACK.DELIVERED ? 1 : 0,
    pending: ack >= ACK.PENDING && ack < ACK.DELIVERED ? 1 : 0,
  };
}
