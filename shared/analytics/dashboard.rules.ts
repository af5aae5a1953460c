/**
 * Phone health on /dashboard (issue 19), pure: 'connected' when the number can send and receive,
 * 'attention' while a WhatsApp Web number is linking or waiting for its QR scan, 'disconnected'
 * when its session closed, was logged out or locked, or a Cloud API number is not ready.
 */
export type PhoneHealth = 'connected' | 'attention' | 'disconnected';

export function phoneHealth(p: { is_ready: boolean; connection_type?: string | null; session_state?: string | null }): PhoneHealth {
  if (p.connection_type === 'wa_web') {
    if (p.session_state === 'open') return 'connected';
    if (p.session_state === 'linking' || p.session_state === 'qr' || p.session_state == null) return 'attention';
    return 'disconnected';
  }
  return p.is_ready ? 'connected' : 'disconnected';
}
