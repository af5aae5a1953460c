/**
 * Import contacts from a CSV file (issue 15 item 3): pick a file (read in the browser by
 * papaparse through parseImportCsv: rows keep their file line, a stray quote is reported, issue 49
 * item 6), map its columns (a guess from the header first), see the preview (rows to import,
 * numbers repeated in the file, an error per bad row: shared/contact/import.rules.ts), then import:
 * the rows go up in chunks and a background job writes them while a progress bar follows it
 * (GET every second). A finished import can be undone (it deletes the contacts it created).
 */
import { useEffect, useMemo, useState } from 'react';
import { guessMapping, parseImportCsv, previewImport, type ImportTable } from '#shared/contact/import.rules.ts';
import { IMPORT_CHUNK, MAX_IMPORT_ROWS, type ContactImport } from '#shared/contact/import.schemas.ts';
import type { PropertyDef } from '#shared/property/property.schemas.ts';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { apiRequest, errorMessage } from '../../../lib/api.ts';

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/contacts/imports`;

export function ImportDialog({ orgId, defs, onClose, onChanged }: { orgId: string; defs: PropertyDef[]; onClose: () => void; onChanged: () => void }) {
  const [csv, setCsv] = useState<ImportTable | null>(null);
  const table = csv?.rows ?? null;
  const [fileName, setFileName] = useState('');
  const [mapping, setMapping] = useState<string[]>([]);
  const [job, setJob] = useState<ContactImport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const preview = useMemo(() => (csv ? previewImport(csv, mapping, defs) : null), [csv, mapping, defs]);

  // follow the job until it settles
  useEffect(() => {
    if (!job || !['running', 'undoing'].includes(job.status)) return;
    const t = setTimeout(() => {
      apiRequest<{ import: ContactImport }>('GET', `${base(orgId)}/${job.job_id}`)
        .then((r) => {
          setJob(r.import);
          if (r.import.status !== job.status) onChanged();
        })
        .catch((e: unknown) => setError(errorMessage(e)));
    }, 1000);
    return () => clearTimeout(t);
  }, [job, orgId, onChanged]);

  function pick(file: File) {
    setError(null);
    setFileName(file.name);
    file
      .text()
      .then((text) => {
        const read = parseImportCsv(text);
        if (read.rows.length < 2 && !read.problems.length) return setError('The file has no rows under its header.');
        if (!read.rows.length) return setError('The file has no header row.');
        if (read.rows.length - 1 > MAX_IMPORT_ROWS) return setError(`A file can have at most ${MAX_IMPORT_ROWS.toLocaleString()} rows.`);
        setCsv(read);
        setMapping(guessMapping(read.rows[0]!, defs));
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }

  async function start() {
    if (!preview?.rows.length) return;
    setBusy(true);
    setError(null);
    try {
      const created = (await apiRequest<{ import: ContactImport }>('POST', base(orgId), { total: preview.rows.length, file_name: fileName.slice(0, 255) })).import;
      setJob(created);
      for (let seq = 0; seq < created.chunks; seq++) {
        await apiRequest('PUT', `${base(orgId)}/${created.job_id}/chunks/${seq}`, { rows: preview.rows.slice(seq * IMPORT_CHUNK, (seq + 1) * IMPORT_CHUNK) });
        setJob({ ...created, processed: 0, status: 'uploading', removed: Math.min(preview.rows.length, (seq + 1) * IMPORT_CHUNK) });
      }
      setJob((await apiRequest<{ import: ContactImport }>('POST', `${base(orgId)}/${created.job_id}/start`)).import);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  async function undo() {
    if (!job) return;
    setBusy(true);
    try {
      setJob((await apiRequest<{ import: ContactImport }>('POST', `${base(orgId)}/${job.job_id}/undo`)).import);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  if (job) {
    const uploading = job.status === 'uploading';
    const undoing = job.status === 'undoing' || job.status === 'undone';
    const value = uploading ? job.removed : undoing ? job.removed : job.processed;
    const max = undoing ? Math.max(job.created, 1) : job.total;
    const label = uploading ? `Uploading ${value.toLocaleString()} of ${max.toLocaleString()} rows…` : job.status === 'running' ? `Imported ${value.toLocaleString()} of ${max.toLocaleString()} rows…` : job.status === 'done' ? `Done: ${job.created.toLocaleString()} contacts added, ${job.existing.toLocaleString()} already existed.` : job.status === 'undoing' ? `Undoing: ${value.toLocaleString()} of ${max.toLocaleString()} removed…` : job.status === 'undone' ? `Undone: ${job.removed.toLocaleString()} contacts removed.` : (job.error ?? 'The import failed.');
    return (
      <Dialog title="Import contacts" onClose={onClose} testId="contact-import-dialog">
        <div className="dialog-body form-grid">
          <progress className="contact-import-progress" value={value} max={max} aria-label="Import progress" data-testid="contact-import-progress" />
          <p role="status" data-testid="contact-import-status" data-status={job.status}>
            {label}
          </p>
          {job.status === 'done' || job.status === 'failed' ? (
            <DialogFooter error={error} onCancel={() => void undo()} cancelLabel="Undo import" onSubmit={onClose} submitLabel="Close" busyLabel="Working…" busy={busy} disabled={busy} submitTestId="contact-import-close" />
          ) : (
            <DialogFooter error={error} onCancel={onClose} cancelLabel="Hide" onSubmit={onClose} submitLabel="Keep working" busyLabel="Working…" busy={false} disabled={false} submitTestId="contact-import-close" />
          )}
        </div>
      </Dialog>
    );
  }

  const targets = [
    ['ignore', 'Leave out'],
    ['phone', 'Phone number'],
    ['name', 'Name'],
    ['notes', 'Notes'],
    ...defs.map((d) => [`prop:${d.property_id}`, d.property_name]),
  ];
  return (
    <Dialog title="Import contacts" onClose={onClose} testId="contact-import-dialog">
      <div className="dialog-body form-grid">
        <label className="field">
          <span>CSV file (a header row, then one contact per row)</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => e.target.files?.[0] && pick(e.target.files[0])} data-testid="contact-import-file" />
        </label>
        {table && (
          <table className="contact-import-map">
            <thead>
              <tr>
                <th>Column</th>
                <th>First row</th>
                <th>Import as</th>
              </tr>
            </thead>
            <tbody>
              {table[0]!.map((h, i) => (
                <tr key={i}>
                  <td>{h}</td>
                  <td className="muted">{table[1]?.[i] ?? ''}</td>
                  <td>
                    <select value={mapping[i] ?? 'ignore'} onChange={(e) => setMapping((m) => m.map((x, j) => (j === i ? e.target.value : x)))} aria-label={`Import ${h} as`} data-testid="contact-import-map">
                      {targets.map(([v, l]) => (
                        <option key={v} value={v}>
                          {l}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {preview && (
          <div data-testid="contact-import-preview">
            <p>
              <strong>{preview.rows.length.toLocaleString()}</strong> contacts to import{preview.duplicates ? `, ${preview.duplicates.toLocaleString()} rows repeat a number above them (left out)` : ''}
              {preview.errors.length ? `, ${preview.errors.length.toLocaleString()} rows with errors (left out)` : ''}. Numbers without a country code are read as Indian (+91); numbers that are contacts already are left as they are.
            </p>
            {preview.errors.length > 0 && (
              <ul className="contact-import-errors" data-testid="contact-import-errors">
                {preview.errors.slice(0, 50).map((e) => (
                  <li key={`${e.row}-${e.field}`}>
                    Row {e.row}: {e.field === 'row' ? '' : `${e.field === 'phone' ? 'phone' : (defs.find((d) => d.property_id === e.field)?.property_name ?? e.field)} `}
                    {e.reason}
                  </li>
                ))}
                {preview.errors.length > 50 && <li>…and {preview.errors.length - 50} more</li>}
              </ul>
            )}
          </div>
        )}
        <DialogFooter error={error} onCancel={onClose} onSubmit={() => void start()} submitLabel={preview?.rows.length ? `Import ${preview.rows.length.toLocaleString()} contacts` : 'Import'} busyLabel="Starting…" busy={busy} disabled={busy || !preview?.rows.length} submitTestId="contact-import-start" />
      </div>
    </Dialog>
  );
}
