/**
 * CSV import and export of FAQ pairs (papaparse): columns `question`, `answer` (instructions kept
 * inside their tag pair), `attachment_url` (the file's storage key), `attachment_type`, `attachment_name`.
 * A header row is required on import; rows without a question or an answer are reported, not
 * imported. Attachments are files uploaded to each pair's own folder (spec §7), so an import
 * brings the texts only: a row naming a file is imported without it and reported, and the file is
 * attached in the editor.
 */
import Papa from 'papaparse';
import type { Faq, FaqInput } from '#shared/ai/ai.schemas.ts';

export const CSV_COLUMNS = ['question', 'answer', 'attachment_url', 'attachment_type', 'attachment_name'] as const;

export function faqsToCsv(faqs: readonly Faq[]): string {
  return Papa.unparse({
    fields: [...CSV_COLUMNS],
    data: faqs.map((f) => [f.question, f.answer, f.attachments[0]?.url ?? '', f.attachments[0]?.type ?? '', f.attachments[0]?.name ?? '']),
  });
}

/** @returns the pairs to create and the row numbers (1 = first data row) that were skipped, with why */
export function csvToFaqs(text: string): { pairs: FaqInput[]; skipped: Array<{ row: number; reason: string }> } {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim().toLowerCase() });
  const pairs: FaqInput[] = [];
  const skipped: Array<{ row: number; reason: string }> = [];
  parsed.data.forEach((r, i) => {
    const question = (r.question ?? '').trim();
    const answer = (r.answer ?? '').trim();
    if (!question || !answer) return skipped.push({ row: i + 1, reason: 'no question or answer' });
    const file = (r.attachment_name ?? '').trim() || (r.attachment_url ?? '').trim();
    if (file) skipped.push({ row: i + 1, reason: `imported without its file ${file.split('/').pop()} (attach it in the editor)` });
    pairs.push({ question, answer, attachments: [] });
  });
  return { pairs, skipped };
}
