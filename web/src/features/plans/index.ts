/** The plans feature's public surface for other features (issue 22). */
export { PlanGate, useHasFeature } from './PlanGate.tsx';
export { usePlan } from './api.ts';
