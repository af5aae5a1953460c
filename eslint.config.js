import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * One lint setup. Besides the TypeScript rules it enforces the import boundaries of
 * house-style.md and issue 12, in two layers that both fire on the import forms the code uses
 * (`#shared/…` subpath imports and relative paths):
 *
 * - `no-restricted-imports` on the written specifier: packages and Node built-ins by name, and
 *   the `#shared/…` whitelist of the web app (only `*.schemas.ts`, `*.rules.ts` and
 *   whatsapp/capabilities.ts, the browser-safe modules by house-style.md's naming);
 * - `import-x/no-restricted-paths` on the resolved file (the TypeScript resolver reads
 *   package.json "imports", so `#shared/db/x.ts` and `../../../shared/db/x.ts` are the same
 *   path): web never reaches server-only shared code, functions/, events/, scripts/ or infra/;
 *   a web feature reaches another feature only through its `index.ts`; shared/ never reaches
 *   functions/, scripts/, infra/ or web/; events/ never reaches functions/ (consumers live in
 *   functions/consumers/); infra imports no runtime code; events/contracts only zod.
 *
 * tests/lint/boundaries.test.ts lints forbidden imports through ESLint's Node API and expects
 * them to fail.
 */
const REPO = import.meta.dirname;
const restrict = (patterns, message) => patterns.map((group) => ({ group: [group], message }));

/** Packages that only run on the server (never in the browser bundle). */
const SERVER_PACKAGES = ['@aws-sdk/*', '@aws-lambda-powertools/*', '@middy/*', '@opensearch-project/*', 'electrodb', 'baileys', 'sharp', 'ws', 'file-type'];
const NODE_BUILTINS = ['node:*', ...builtinModules.filter((m) => !m.startsWith('_'))];

/** Folders of shared/ with server-only code (DynamoDB, ports to AWS, the inbox use cases, auth tokens, blobs, search, scheduler). */
const SERVER_SHARED = ['db', 'ports', 'inbox', 'auth', 'blobs', 'search', 'scheduler'].map((d) => `shared/${d}`);

/** Web feature folders (web/src/features/<feature>, settings/<page> counts as part of settings). */
const FEATURES_DIR = path.join(REPO, 'web/src/features');
const features = (() => {
  try {
    return readdirSync(FEATURES_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
})();

const webMessage = 'The web app imports only browser-safe shared modules (*.schemas.ts, *.rules.ts) — never server-only shared code, functions/, events/, scripts/ or infra/.';

export default tseslint.config(
  { ignores: ['node_modules/**', 'web/dist/**', 'cdk.out/**', '.data/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(REPO, 'tsconfig.json') })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // CloudFormation templates and raw payloads in tests are untyped JSON
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    ignores: ['web/vite.config.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          ...restrict(SERVER_PACKAGES, `${webMessage} (server-only package)`),
          ...restrict(NODE_BUILTINS, `${webMessage} (Node built-in)`),
          { regex: '^#(functions|events)/', message: webMessage },
          // the whitelist: a #shared import must name a *.schemas.ts or *.rules.ts file (or capabilities.ts)
          { regex: '^#shared/(?!(.+\\.(schemas|rules)\\.ts|whatsapp/capabilities\\.ts)$)', message: webMessage },
          { regex: '^(\\.\\./)+(shared|functions|events|scripts|infra)/', message: 'Import shared code through #shared/…, never by a relative path out of web/.' },
        ],
      }],
      'import-x/no-restricted-paths': ['error', {
        basePath: REPO,
        zones: [
          // pure *.rules.ts files are browser-safe wherever they live (the block for them below checks it)
          {
            target: 'web',
            from: SERVER_SHARED.map((dir) => `${REPO}/${dir}/**`),
            except: [`${REPO}/shared/**/*.rules.ts`],
            message: webMessage,
          },
          { target: 'web', from: ['functions', 'events', 'scripts', 'infra'], message: webMessage },
          ...features.map((feature) => ({
            target: `web/src/features/${feature}/**`,
            from: [`${FEATURES_DIR}/*/**`],
            except: [`${FEATURES_DIR}/${feature}/**`, `${FEATURES_DIR}/*/index.ts`, `${FEATURES_DIR}/*/index.tsx`],
            message: `A feature imports only its own files, components/ui, lib, app and other features' index.ts (web/src/features/${feature}).`,
          })),
        ],
      }],
    },
  },
  {
    files: ['infra/**/*.ts'],
    ignores: ['infra/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: restrict(['electrodb', '#functions/*'], 'infra reads the registries and the table definition, never runtime code.') }],
      'import-x/no-restricted-paths': ['error', {
        basePath: REPO,
        zones: [{ target: 'infra', from: ['shared/db/service.ts', 'shared/db/client.ts', 'shared/inbox', 'shared/auth', 'scripts', 'functions/http', 'functions/ws', 'functions/channels', 'functions/lib'], message: 'infra reads the registries and the table definition, never runtime code.' }],
      }],
    },
  },
  {
    files: ['events/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: restrict(['#shared/*', '#functions/*', '@aws-sdk/*', 'electrodb'], 'Event contracts import only zod (and each other).') }],
      'import-x/no-restricted-paths': ['error', { basePath: REPO, zones: [{ target: 'events/contracts', from: ['shared', 'functions'], message: 'Event contracts import only zod (and each other).' }] }],
    },
  },
  {
    // the catalogue and the publisher are read by handlers, the local runtime and infra: they never reach into handlers
    files: ['events/**/*.ts'],
    ignores: ['events/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: restrict(['#functions/*'], 'events/ (catalogue, contracts, publisher) does not import handlers; consumers live in functions/consumers/.') }],
      'import-x/no-restricted-paths': ['error', { basePath: REPO, zones: [{ target: 'events', from: ['functions', 'scripts', 'infra', 'web'], message: 'events/ (catalogue, contracts, publisher) does not import handlers; consumers live in functions/consumers/.' }] }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: restrict(['#functions/*'], 'shared/ is the domain: it does not reach into handlers, scripts, infra or web.') }],
      // shared/whatsapp/web/ (the WhatsApp Web connector) is domain code; web/ is the browser app
      'import-x/no-restricted-paths': ['error', { basePath: REPO, zones: [{ target: 'shared', from: ['functions', 'scripts', 'infra', 'web'], message: 'shared/ is the domain: it does not reach into handlers, scripts, infra or web.' }] }],
    },
  },
  {
    // the browser-safe shared modules the web bundles: no server packages or Node built-ins
    // (type-only imports vanish from the bundle and are allowed)
    files: ['shared/**/*.schemas.ts', 'shared/**/*.rules.ts', 'shared/whatsapp/capabilities.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          ...restrict(['#functions/*'], 'shared/ is the domain: it does not reach into handlers, scripts, infra or web.'),
          ...[...SERVER_PACKAGES, ...NODE_BUILTINS].map((group) => ({ group: [group], allowTypeImports: true, message: 'Schemas and rules are browser-safe (the web bundles them): no server packages or Node built-ins.' })),
        ],
      }],
    },
  },
);
