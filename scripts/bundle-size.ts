/**
 * `npm run bench:bundle [-- /route …]`: the gzip size of the JavaScript a route of the web app
 * loads on its first screen, read from the Vite manifest of the last `npm run build:web`
 * (web/dist/.vite/manifest.json).
 *
 * A route's first-screen JS = the entry chunk (web/index.html) and its static imports, plus —
 * when the route's page is lazy-loaded — the page's chunk and its static imports. Dynamic
 * imports inside those chunks (other pages, dialogs loaded on demand) are not counted, since
 * the browser does not fetch them for the first screen. Sizes are gzip level 9 of the built
 * file, in KB (1 KB = 1000 bytes) as Vite prints them; CSS is reported on its own line.
 *
 * The page module of each route is the `lazy(() => import(…))` target in web/src/app/App.tsx;
 * ROUTE_PAGES below names them. A route whose page is not a manifest entry (not lazy) counts
 * the entry only.
 */
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

type ManifestChunk = { file: string; name?: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestChunk>;

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(REPO, 'web', 'dist');

/** The lazy modules (paths relative to web/) each measured route loads: its page, and for an open chat the thread. */
const ROUTE_PAGES: Record<string, string[]> = {
  '/chats': ['src/features/chats/components/ChatsPage.tsx'],
  '/chats/:chatId': ['src/features/chats/components/ChatsPage.tsx', 'src/features/chats/components/Thread.tsx'],
  '/tickets': ['src/features/tickets/components/TicketsPage.tsx'],
  '/list': ['src/features/list/components/ListPage.tsx'],
  '/media': ['src/features/media/components/MediaPage.tsx'],
};

const gz = (file: string): number => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

/** Every manifest key reachable from `key` through static imports (including `key`). */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
}

/**
 * The manifest key of a lazy module: its own key, or — when Rollup merged it with modules other
 * chunks share, so the chunk has no `src` — the dynamic entry named after the file.
 */
function chunkOf(manifest: Manifest, page: string): string | undefined {
  if (manifest[page]) return page;
  const name = page.split('/').pop()!.replace(/\.tsx?$/, '');
  return Object.keys(manifest).find((k) => manifest[k]!.isDynamicEntry && (manifest[k]!.src === page || (!manifest[k]!.src && manifest[k]!.name === name)));
}

function measure(manifest: Manifest, route: string): { js: number; css: number; files: string[] } {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('No entry chunk in the Vite manifest');
  const keys = staticClosure(manifest, entry);
  for (const page of ROUTE_PAGES[route] ?? []) {
    const key = chunkOf(manifest, page);
    if (key) staticClosure(manifest, key, keys);
  }
  const files = [...keys].map((k) => manifest[k]!.file);
  const css = new Set([...keys].flatMap((k) => manifest[k]!.css ?? []));
  return {
    js: files.reduce((sum, f) => sum + gz(f), 0),
    css: [...css].reduce((sum, f) => sum + gz(f), 0),
    files,
  };
}

const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8')) as Manifest;
const routes = process.argv.slice(2).filter((a) => a.startsWith('/'));
const kb = (n: number) => (n / 1000).toFixed(1).padStart(7);
console.log('route            JS gzip KB   CSS gzip KB   chunks');
for (const route of routes.length ? routes : Object.keys(ROUTE_PAGES)) {
  const m = measure(manifest, route);
  console.log(`${route.padEnd(15)} ${kb(m.js)}      ${kb(m.css)}        ${m.files.length}`);
}
