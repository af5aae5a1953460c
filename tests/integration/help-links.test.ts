import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localHelpLinks, renderMarkdownPage } from '../../scripts/local/docs.ts';
import { REPO_ROOT } from '../../scripts/local/handlers.ts';
import { WebConfig } from '../../shared/me.schemas.ts';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';

/**
 * Issue 49 item 10: the local runtime's Help links point at real things: the repository's manual,
 * served at /docs, and whatever CHORUS_LINK_<KEY> names; nothing else is shown.
 */
describe('the local runtime’s help links', () => {
  it('Documentation is the manual at /docs; CHORUS_LINK_<KEY> adds or removes one; config.json keeps them', () => {
    expect(localHelpLinks({})).toEqual({ documentation: '/docs' });
    expect(localHelpLinks({ CHORUS_LINK_STATUS: 'https://status.acme.io', CHORUS_LINK_CONTACT: 'mailto:help@acme.io', CHORUS_LINK_DOCUMENTATION: '' })).toEqual({ status: 'https://status.acme.io', contact: 'mailto:help@acme.io' });
    expect(localHelpLinks({ CHORUS_LINK_SUPPORT: 'javascript:alert(1)' })).toEqual({ documentation: '/docs' });
    // the schema keeps `links` (zod drops keys it does not know: they never reached the app before)
    const parsed = WebConfig.parse({ apiUrl: '', wsUrl: '/ws', region: 'r', userPoolId: 'p', userPoolClientId: 'c', stage: 'local', links: localHelpLinks({}) });
    expect(parsed.links).toEqual({ documentation: '/docs' });
  });

  it('/docs renders the README with heading anchors, code kept as written', () => {
    const html = renderMarkdownPage(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(html).toContain('<h2 id="two-commands">Two commands</h2>');
    expect(html).toContain('<title>Chorus · documentation</title>');
    expect(html).not.toMatch(/<script/i);
    expect(renderMarkdownPage('# T\n\n```\n<b>x</b>\n```\n')).toContain('<pre>&lt;b&gt;x&lt;/b&gt;</pre>');
  });
});

describe('served by the runtime', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime();
  });
  afterAll(async () => {
    await rt?.cleanup();
  });

  it('/config.json carries the links and /docs answers with the manual; nothing outside README.md and docs/ is served', async () => {
    const cfg = WebConfig.parse(await (await rt.api(null, '/config.json')).json());
    expect(cfg.links).toEqual({ documentation: '/docs' });
    const docs = await rt.api(null, '/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    expect(await docs.text()).toContain('id="two-commands"');
    expect((await rt.api(null, '/docs/identity.md')).status).toBe(200);
    expect((await rt.api(null, '/docs/..%2Fpackage.json')).status).toBe(404);
    expect((await rt.api(null, '/docs/missing.md')).status).toBe(404);
  });
});
