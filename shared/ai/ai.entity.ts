import { Entity } from 'electrodb';

/**
 * FAQ pair of the AI agent's knowledge base (spec §3 FAQ pair; issue 18). `faq_id` is the pair's
 * `context_id` (a ULID, so an org's pairs list in creation order). Access: by key; the org's pairs
 * by one paginated Query of its partition (the local ranker reads them all, at most
 * FAQ_MAX_PAIRS). Timestamps epoch **ms**.
 */
export const AiFaqEntity = new Entity({
  model: { entity: 'ai_faq', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    faq_id: { type: 'string', required: true },
    question: { type: 'string', required: true },
    /** instructions inside `<instructions>…</instructions>` (faq.rules.ts) */
    answer: { type: 'string', required: true },
    /** [{ url, type, name }] (at most one; no audio) */
    attachments: { type: 'any' },
    /**
     * Bedrock adapter: the embedding of the pair's question (embeddings.ts `embeddedText`), base64
     * of a little-endian Float32Array (512 values ~2.7 KB). Written at save and, for older rows,
     * the first time the agent needs it; current only while `embedding_model` and `embedding_hash`
     * match (a changed question or model re-embeds that pair alone). Legacy rows may hold a number list.
     */
    embedding: { type: 'any' },
    /** the embedder's key, `<model id>#<dimensions>` (e.g. `amazon.titan-embed-text-v2:0#512`) */
    embedding_model: { type: 'string' },
    /** sha256 (hex, 32 characters) of the embedded text */
    embedding_hash: { type: 'string' },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    updated_by: { type: 'string' },
    updated_at: { type: 'number' },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['faq_id'] } },
  },
});

/** The org's AI agent settings (ai.schemas.ts AiSettings), one item per org. */
export const AiSettingsEntity = new Entity({
  model: { entity: 'ai_settings', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    settings: { type: 'any', required: true },
    updated_by: { type: 'string' },
    updated_at: { type: 'number' },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: [] } },
  },
});

/**
 * One decision of the agent on one customer message (the audit; issue 18 §5): keyed by the
 * message's `unique_id` (a ULID), so the org's decisions list newest first with one Query
 * (`GET /ai/decisions`, for /logs) and creating it is the per-message idempotency claim.
 * `outcome`: 'pending' (claimed, reply scheduled) | 'answered' | 'handed_off' | 'passive' (note
 * only) | 'skipped' (not answered, `reason` says why) | 'cancelled' (taken over before the reply).
 * TTL `expires_at` epoch s (90 days).
 */
export const AiDecisionEntity = new Entity({
  model: { entity: 'ai_decision', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    decision_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    phone_id: { type: 'string' },
    question: { type: 'string' },
    outcome: { type: ['pending', 'answered', 'handed_off', 'passive', 'skipped', 'cancelled'] as const, required: true },
    reason: { type: 'string' },
    answer: { type: 'string' },
    confidence: { type: 'number' },
    /** [{ faq_id, question, score }] */
    candidates: { type: 'any' },
    adapter: { type: 'string' },
    /** ms from the customer's message to the decision */
    latency_ms: { type: 'number' },
    /** epoch ms the reply is due (response delay) */
    due_at: { type: 'number' },
    /** unique_id of the reply sent, and of the audit note */
    reply_unique_id: { type: 'string' },
    /** the media message carrying the pair's attachment, when one was sent */
    attachment_unique_id: { type: 'string' },
    note_unique_id: { type: 'string' },
    created_at: { type: 'number', required: true },
    decided_at: { type: 'number' },
    expires_at: { type: 'number' },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['decision_id'] } },
  },
});
