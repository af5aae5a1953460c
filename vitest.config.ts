import { defineConfig } from 'vitest/config';

/**
 * One vitest run for everything: unit tests beside the code (shared/, events/, infra/),
 * integration tests (tests/integration: handlers on the local runtime with DynamoDB Local) and
 * end-to-end tests (tests/e2e: Debian's Chromium through playwright-core).
 * Each integration/e2e file starts its own runtime (own ports, temp data dir), so files are
 * isolated; two run at a time on this 2-core machine.
 */
export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'web/src/**/*.test.ts', 'events/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['node_modules/**', 'web/dist/**', 'cdk.out/**', '.data/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
