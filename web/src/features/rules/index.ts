/** What other features may use of the rules feature: the thread's pending follow-ups strip. */
export { PendingFollowUps } from './PendingFollowUps.tsx';
