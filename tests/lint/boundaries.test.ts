import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';

/**
 * The import boundaries of eslint.config.js fire on the import forms the code uses
 * (`#shared/…` subpath imports and relative paths): each forbidden import below fails lint
 * through ESLint's Node API, each allowed one passes. The linted files are virtual (lintText
 * with a filePath); the imported files are real, so the resolver finds them.
 */
const REPO = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: REPO });

/** The boundary rules that fired for `code` linted as the file at `file` (repo-relative). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'import-x/no-restricted-paths').map((m) => m.ruleId!);
}

const WEB_FILE = 'web/src/features/chats/components/Probe.tsx';
const SETTINGS_FILE = 'web/src/features/settings/labels/Probe.tsx';
const use = (spec: string) => `import * as m from '${spec}';\nexport const probe = m;\n`;

describe('web must not reach server-only code', () => {
  it.each([
    ['#shared/db/service.ts'],
    ['#shared/inbox/send.ts'],
    ['#shared/ports/realtime.ts'],
    ['#shared/auth/actor.ts'],
    ['#functions/routes.ts'],
    ['#events/catalog.ts'],
  ])('the subpath import %s fails lint', async (spec) => {
    expect(await boundaryErrors(WEB_FILE, use(spec))).not.toEqual([]);
  });

  it('a relative path out of web/ into shared/db fails lint on the resolved path too', async () => {
    const errors = await boundaryErrors(WEB_FILE, use('../../../../../shared/db/service.ts'));
    expect(errors).toContain('import-x/no-restricted-paths');
    expect(errors).toContain('no-restricted-imports');
  });

  it.each([['@aws-sdk/client-s3'], ['electrodb'], ['baileys'], ['node:fs'], ['fs'], ['crypto']])('the package %s fails lint', async (spec) => {
    expect(await boundaryErrors(WEB_FILE, use(spec))).toEqual(['no-restricted-imports']);
  });

  it('a shared module that is not a schema or rule file fails lint even outside the server folders', async () => {
    expect(await boundaryErrors(WEB_FILE, use('#shared/chat/chat.ts'))).toEqual(['no-restricted-imports']);
  });

  it.each([['#shared/chat/chat.schemas.ts'], ['#shared/task/task.rules.ts'], ['#shared/auth/password.rules.ts'], ['#shared/whatsapp/capabilities.ts'], ['react']])(
    'the browser-safe import %s passes',
    async (spec) => {
      expect(await boundaryErrors(WEB_FILE, use(spec))).toEqual([]);
    },
  );
});

describe('shared domain code must not import functions/, scripts/ or infra/', () => {
  it.each([['#functions/routes.ts'], ['../../functions/routes.ts'], ['../../scripts/bench-lib.ts'], ['../../infra/app.ts']])('%s from shared/chat fails lint', async (spec) => {
    expect(await boundaryErrors('shared/chat/probe.ts', use(spec))).not.toEqual([]);
  });

  it('a browser-safe rules file may not import a Node built-in', async () => {
    expect(await boundaryErrors('shared/chat/probe.rules.ts', use('node:crypto'))).toEqual(['no-restricted-imports']);
  });

  it('shared code may import other shared code', async () => {
    expect(await boundaryErrors('shared/chat/probe.ts', use('../ticket/ticket.rules.ts'))).toEqual([]);
  });
});

describe('events/ must not import handlers', () => {
  it.each([['../functions/lib/sqs.ts'], ['#functions/lib/sqs.ts']])('%s from events/ fails lint', async (spec) => {
    expect(await boundaryErrors('events/probe.ts', use(spec))).not.toEqual([]);
  });

  it('events/ may import shared code', async () => {
    expect(await boundaryErrors('events/probe.ts', use('../shared/media/media.rules.ts'))).toEqual([]);
  });
});

describe('a feature must not reach into another feature\'s internals', () => {
  it.each([
    [WEB_FILE, '../../tickets/components/TicketsPage.tsx'],
    [WEB_FILE, '../../tasks/hooks/useTasks.tsx'],
    [SETTINGS_FILE, '../../chats/components/ChatBadges.tsx'],
  ])('%s importing %s fails lint', async (file, spec) => {
    expect(await boundaryErrors(file, use(spec))).toEqual(['import-x/no-restricted-paths']);
  });

  it.each([
    [WEB_FILE, '../../tickets/index.ts'],
    [WEB_FILE, './ChatList.tsx'],
    [WEB_FILE, '../../../components/ui/Dialog.tsx'],
    [WEB_FILE, '../../../lib/members.ts'],
    [SETTINGS_FILE, '../../chats/index.ts'],
    [SETTINGS_FILE, '../team/TeamPage.tsx'],
  ])('%s importing %s passes', async (file, spec) => {
    expect(await boundaryErrors(file, use(spec))).toEqual([]);
  });
});
