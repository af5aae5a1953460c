import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { ulid } from 'ulid';
import type { MailMessage, MailPort } from '../../shared/ports/mail.ts';

/**
 * The local mail port: every email the product sends (sign-in codes, invitations) is written as one
 * JSON file under `<dataDir>/outbox/` (name = ULID, so names sort by time) instead of going out. The
 * gateway serves them at `/_local/outbox` (an HTML page, newest first; `?format=json` for scripts and
 * tests), which the login page links to when config.json says the runtime has an outbox.
 */
export interface OutboxMessage extends MailMessage {
  id: string;
  /** epoch ms */
  sent_at: number;
}

export interface LocalOutbox extends MailPort {
  dir: string;
  /** messages, newest first (at most `limit`) */
  list(limit?: number): Promise<OutboxMessage[]>;
  /** answer GET /_local/outbox */
  serve(res: ServerResponse, url: URL): Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(messages: OutboxMessage[]): string {
  const rows = messages
    .map(
      (m) => `<article class="mail" data-testid="outbox-message" data-to="${esc(m.to)}" data-kind="${esc(m.kind)}">
  <header><strong data-testid="outbox-subject">${esc(m.subject)}</strong><span>to <span data-testid="outbox-to">${esc(m.to)}</span> · <time datetime="${new Date(m.sent_at).toISOString()}">${esc(new Date(m.sent_at).toLocaleString('en-GB', { timeZone: 'UTC' }))} UTC</time></span></header>
  <pre data-testid="outbox-body">${esc(m.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local outbox · Chorus</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 760px; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
  h1 { font-size: 1.4rem; margin-bottom: .25rem; }
  .muted { opacity: .75; }
  .mail { border: 1px solid #8884; border-radius: 8px; padding: .75rem 1rem; margin: .75rem 0; }
  .mail header { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .5rem; }
  .mail header span { font-size: .9rem; opacity: .8; }
  pre { white-space: pre-wrap; font: inherit; margin: .5rem 0 0; }
</style></head>
<body>
<h1>Local outbox</h1>
<p class="muted">Emails this local Chorus would have sent (sign-in codes, invitations), newest first. Nothing here left this machine. Reload to see new ones.</p>
${rows || '<p data-testid="outbox-empty">No emails yet. Ask for a sign-in code or invite someone, then reload.</p>'}
</body></html>`;
}

/** Open (creating) the outbox under `<dataDir>/outbox`. */
export async function startLocalOutbox(dataDir: string): Promise<LocalOutbox> {
  const dir = join(dataDir, 'outbox');
  await mkdir(dir, { recursive: true });
  const list = async (limit = 200): Promise<OutboxMessage[]> => {
    const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort().reverse().slice(0, limit);
    const out: OutboxMessage[] = [];
    for (const n of names) {
      try {
        out.push(JSON.parse(await readFile(join(dir, n), 'utf8')) as OutboxMessage);
      } catch {
        /* a file being written: skip it this time */
      }
    }
    return out;
  };
  return {
    dir,
    list,
    async send(m) {
      const id = ulid();
      const msg: OutboxMessage = { id, sent_at: Date.now(), to: m.to, subject: m.subject, text: m.text, kind: m.kind };
      await writeFile(join(dir, `${id}.json`), JSON.stringify(msg, null, 2));
    },
    async serve(res, url) {
      const messages = await list();
      if (url.searchParams.get('format') === 'json') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        return void res.end(JSON.stringify({ messages }));
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page(messages));
    },
  };
}
