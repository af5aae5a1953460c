import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { HELP_LINK_KEYS, isHelpLinkTarget, type HelpLinksConfig } from '../../shared/me.schemas.ts';

/**
 * The repository's own documentation served by the local runtime (issue 49 item 10: the Help menu's
 * Documentation link points at something real): `/docs` is README.md, `/docs/<name>` a file of
 * `docs/` (`identity.md`). Rendered as a plain page: headings with GitHub-style anchors
 * (`/docs#two-commands`), fenced code in `<pre>`, the rest as written (no Markdown library needed
 * for a manual that is read in a terminal as often as in a browser).
 */
export async function serveDocs(res: ServerResponse, repoRoot: string, path: string): Promise<void> {
  const name = path === '/docs' || path === '/docs/' ? 'README.md' : path.slice('/docs/'.length);
  // only the files named above: no path into the rest of the repository
  const file = name === 'README.md' ? join(repoRoot, 'README.md') : /^[a-z0-9-]+\.md$/i.test(name) ? join(repoRoot, 'docs', name) : null;
  const text = file ? await readFile(file, 'utf8').catch(() => null) : null;
  if (text === null) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('No such document.');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
  res.end(renderMarkdownPage(text));
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export const headingSlug = (title: string): string =>
  title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** A Markdown text as a readable HTML page (see the module comment). */
export function renderMarkdownPage(md: string): string {
  const out: string[] = [];
  let para: string[] = [];
  let fence: string[] | null = null;
  const flush = () => {
    if (para.length) out.push(`<p>${esc(para.join('\n'))}</p>`);
    para = [];
  };
  let title = 'Chorus';
  for (const line of md.split('\n')) {
    if (fence) {
      if (/^\s*```/.test(line)) {
        out.push(`<pre>${esc(fence.join('\n'))}</pre>`);
        fence = null;
      } else fence.push(line);
      continue;
    }
    if (/^\s*```/.test(line)) {
      flush();
      fence = [];
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      flush();
      if (h[1]!.length === 1 && title === 'Chorus') title = h[2]!;
      out.push(`<h${h[1]!.length} id="${esc(headingSlug(h[2]!))}">${esc(h[2]!)}</h${h[1]!.length}>`);
      continue;
    }
    if (!line.trim()) flush();
    else para.push(line);
  }
  if (fence) out.push(`<pre>${esc(fence.join('\n'))}</pre>`);
  flush();
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)} · documentation</title><style>body{font:15px/1.55 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}p{white-space:pre-wrap}pre{background:#f4f5f7;padding:.75rem;overflow:auto;border-radius:6px}h1,h2,h3{margin-top:2rem}</style>\n${out.join('\n')}\n</html>`;
}

/**
 * The Help links of the local runtime's `/config.json` (shared/me.schemas.ts HelpLinksConfig):
 * Documentation is this repository's manual at `/docs`; every key can be set (or, empty, removed)
 * with `CHORUS_LINK_<KEY>` (`CHORUS_LINK_STATUS=https://status.example.org`). Keys with no target
 * are left out, and the web app does not show them.
 */
export function localHelpLinks(env: NodeJS.ProcessEnv = process.env): HelpLinksConfig {
  const links: HelpLinksConfig = { documentation: '/docs' };
  for (const key of HELP_LINK_KEYS) {
    const v = env[`CHORUS_LINK_${key.toUpperCase()}`];
    if (v === undefined) continue;
    if (v.trim() && isHelpLinkTarget(v.trim())) links[key] = v.trim();
    else delete links[key];
  }
  return links;
}
