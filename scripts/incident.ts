import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * `npm run incident -- set <degraded|downtime> [message…] | clear` (issue 22): the local admin
 * command behind GET /incident (spec §7). It writes `$CHORUS_DATA_DIR/incident.json` (default
 * `.data/`), which the running runtime reads on every request: `downtime` blocks the app with the
 * service-down screen (spec §8 message unless one is given), `degraded` shows the dismissible
 * incident banner. In AWS, point INCIDENT_URL at the status page's endpoint instead.
 */
const [cmd, status, ...words] = process.argv.slice(2);
const file = process.env.INCIDENT_FILE || join(resolve(process.env.CHORUS_DATA_DIR || '.data'), 'incident.json');
if (cmd === 'clear') {
  await rm(file, { force: true });
  console.log(`No incident (${file} removed).`);
} else if (cmd === 'set' && (status === 'degraded' || status === 'downtime' || status === 'resolved')) {
  const incident = { betterstack: { id: `inc_${Date.now()}`, message: words.join(' ') || null, status }, featurebase: null };
  await writeFile(file, JSON.stringify(incident, null, 2));
  console.log(`Incident set in ${file}:`, JSON.stringify(incident));
} else {
  console.error('usage: npm run incident -- set <degraded|downtime|resolved> [message…] | clear');
  process.exit(2);
}
