/**
 * Delivery ticks of an outgoing message from its `ack` (spec's WhatsApp scale):
 * 0 clock (pending), 1 one grey tick (sent), 2 two grey (delivered), 3/4 two blue (read/played), -1 red '!'.
 */
import { ACK } from '#shared/message/message.schemas.ts';

const LABELS: Record<number, string> = {
  [ACK.FAILED]: 'Failed',
  [ACK.PENDING]: 'Pending',
  [ACK.SENT]: 'Sent',
  [ACK.DELIVERED]: 'Delivered',
  [ACK.READ]: 'Read',
  [ACK.PLAYED]: 'Played',
};

export const ackLabel = (ack: number): string => LABELS[ack] ?? `Status ${ack}`;

export function Ack({ ack }: { ack: number }) {
  const label = ackLabel(ack);
  const kind = ack === ACK.FAILED ? 'failed' : ack === ACK.PENDING ? 'pending' : ack >= ACK.READ ? 'read' : 'sent';
  return (
    <span className={`ack ack-${kind}`} data-testid="ack" role="img" aria-label={label} title={label}>
      {ack === ACK.FAILED ? (
        <span className="ack-failed-mark">!</span>
      ) : ack === ACK.PENDING ? (
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
          <circle cx="8" cy="8" r="6.2" fill="none" stroke="currentColor" strokeWidth="1.4" />
          <path d="M8 4.6V8l2.3 1.5" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
        </svg>
      ) : ack === ACK.SENT ? (
        <svg viewBox="0 0 16 16" width="16" height="14" aria-hidden="true" focusable="false">
          <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      ) : (
        <svg viewBox="0 0 20 16" width="19" height="14" aria-hidden="true" focusable="false">
          <path d="M1.5 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
          <path d="M8.5 11.5l7-7" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          <path d="M7 10l1.5 1.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      )}
    </span>
  );
}
