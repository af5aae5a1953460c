import tseslint from 'typescript-eslint';

/**
 * One lint setup. Besides the TypeScript rules it enforces the import boundaries of
 * house-style.md: web never imports shared/db or server code; infra imports no runtime code
 * (only the registries and the table definition); events/contracts imports only zod.
 */
const restrict = (patterns, message) => ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }];

export default tseslint.config(
  { ignores: ['node_modules/**', 'web/dist/**', 'cdk.out/**', '.data/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
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
    rules: {
      'no-restricted-imports': restrict(
        // baileys and the WhatsApp Web connector/worker run in the session worker only (never in the bundle)
        ['**/shared/db/**', '**/shared/inbox/**', '**/shared/auth/**', '**/shared/ports/**', '**/functions/**', '**/events/**', '**/scripts/**', '@aws-sdk/*', 'electrodb', 'baileys', '**/shared/whatsapp/web/**'],
        'The web app imports only browser-safe shared schemas (*.schemas.ts) and rules.',
      ),
    },
  },
  {
    files: ['infra/**/*.ts'],
    ignores: ['infra/**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict(['**/shared/db/service*', '**/shared/db/client*', '**/shared/inbox/**', '**/shared/auth/**', '**/functions/*/**', '**/scripts/**', 'electrodb'], 'infra reads the registries and the table definition, never runtime code.'),
    },
  },
  {
    files: ['events/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(['**/shared/**', '**/functions/**', '@aws-sdk/*', 'electrodb'], 'Event contracts import only zod (and each other).'),
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      // '**/web/src/**' is the web app; shared/whatsapp/web/ (the WhatsApp Web connector) is domain code
      'no-restricted-imports': restrict(['**/functions/**', '**/scripts/**', '**/infra/**', '**/web/src/**'], 'shared/ is the domain: it does not reach into handlers, scripts, infra or web.'),
    },
  },
);
