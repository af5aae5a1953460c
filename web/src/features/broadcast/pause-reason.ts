import type { BroadcastPauseReason } from '#shared/broadcast/broadcast.schemas.ts';

/** Where the plan is renewed or chosen (Settings › Plans and Usage). */
export const PLANS_PATH = '/settings/plans';

/**
 * Why the engine paused a broadcast, in plain words for its detail page (issue 42): after the
 * subscription or the free trial ended the credits read 0, and "out of credits" would send the
 * reader looking at the wrong thing. Each text ends where the link to Settings › Plans follows.
 * null: not paused by the engine (running, or a person paused it).
 */
export function pauseReasonText(reason: BroadcastPauseReason | null | undefined): string | null {
  switch (reason) {
    case 'subscription_ended':
      return 'Paused because your subscription has ended. Nothing more is sent until it is renewed; then resume the broadcast. Renew it on';
    case 'trial_ended':
      return 'Paused because your free trial has ended. Nothing more is sent until you choose a plan; then resume the broadcast. Choose one on';
    case 'out_of_credits':
      return "Paused because this month's bulk message credits ran out. Resume it next month, or add licences on";
    default:
      return null;
  }
}
