/**
 * Split a large webhook body into smaller bodies of the same shape, so each fits one queue
 * record (SQS: 1 MiB; Meta sends up to 3 MB and up to 1000 updates per POST — whatsapp-protocols.md
 * A.4). Only called after the signature was verified on the original bytes. Pure.
 * @param body the parsed webhook body
 * @param maxBytes the largest serialized part wanted
 * @returns JSON strings, each a webhook body with one change and a slice of its messages/statuses;
 *   an update larger than maxBytes on its own is returned alone (the caller decides)
 */
export function splitWebhookBody(body: unknown, maxBytes: number): string[] {
  const b = body as { object?: unknown; entry?: Array<{ id?: unknown; changes?: Array<{ field?: unknown; value?: Record<string, unknown> }> }> };
  if (!b || !Array.isArray(b.entry)) return [JSON.stringify(body)];
  const out: string[] = [];
  for (const entry of b.entry) {
    for (const change of entry?.changes ?? []) {
      const value = change?.value ?? {};
      const wrap = (v: Record<string, unknown>) => JSON.stringify({ object: b.object, entry: [{ id: entry.id, changes: [{ field: change.field, value: v }] }] });
      const whole = wrap(value);
      if (Buffer.byteLength(whole) <= maxBytes) {
        out.push(whole);
        continue;
      }
      const { messages, statuses, ...rest } = value as { messages?: unknown[]; statuses?: unknown[] };
      for (const [key, list] of [['messages', messages], ['statuses', statuses]] as const) {
        if (!Array.isArray(list)) continue;
        let part: unknown[] = [];
        for (const update of list) {
          const next = [...part, update];
          if (part.length && Buffer.byteLength(wrap({ ...rest, [key]: next })) > maxBytes) {
            out.push(wrap({ ...rest, [key]: part }));
            part = [update];
          } else part = next;
        }
        if (part.length) out.push(wrap({ ...rest, [key]: part }));
      }
    }
  }
  return out;
}
