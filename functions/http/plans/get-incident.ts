import { httpHandler } from '../../lib/http.ts';
import { getIncident } from '../../../shared/plan/plan.ts';

/** GET /api/incident (spec §7 GET /incident) -> `{ betterstack: { id, message, status } | null, featurebase: { id } | null }`. */
export const handler = httpHandler({}, async () => ({ body: await getIncident() }));
