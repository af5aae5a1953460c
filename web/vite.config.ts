/**
 * Vite build of the Chorus web app.
 *
 * - root is `web/`, the bundle goes to `web/dist` (emptied on each build);
 * - `#shared/*` resolves to the repo's `shared/*` (same mapping as package.json "imports"),
 *   the web app only imports browser-safe schema modules from there;
 * - `vite --config web/vite.config.ts` proxies `/api`, `/config.json` and `/ws` to the local
 *   runtime (CHORUS_LOCAL_URL, default http://localhost:3000) so the dev server can talk to it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.resolve(webDir, '..');
const localUrl = process.env.CHORUS_LOCAL_URL ?? 'http://localhost:3000';
/** issue 22: the build id, compiled in as __CHORUS_BUILD__ and written to dist/version.json (the old-build icon compares them) */
const buildId = process.env.CHORUS_BUILD_ID || new Date().toISOString();

export default defineConfig({
  root: webDir,
  publicDir: path.join(webDir, 'public'),
  plugins: [
    react(),
    {
      name: 'chorus-version-file',
      apply: 'build',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: buildId }) });
      },
    },
  ],
  define: { __CHORUS_BUILD__: JSON.stringify(buildId) },
  resolve: {
    alias: [{ find: /^#shared\/(.*)$/, replacement: path.join(repoDir, 'shared') + '/$1' }],
  },
  build: {
    outDir: path.join(webDir, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    // scripts/bundle-size.ts reads the manifest to sum the JS a route loads
    manifest: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': { target: localUrl, changeOrigin: true },
      '/config.json': { target: localUrl, changeOrigin: true },
      '/media': { target: localUrl, changeOrigin: true },
      '/ws': { target: localUrl.replace(/^http/, 'ws'), ws: true, changeOrigin: true },
    },
  },
});
