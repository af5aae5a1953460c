/**
 * /ai (spec §2; issue 18): the AI agent. Three tabs:
 *   - Knowledge base: the FAQ pairs (search, create / edit / delete in the spec's editor, CSV
 *     import and export), a virtualized list paged 100 at a time (the next page loads on scroll);
 *   - Settings: on/off per org and per number, default activation, nickname, response delay,
 *     shift hours, passive mode, pause after a human, groups, threshold;
 *   - Test: ask a question and see the answer, the pairs and the confidence; nothing is sent.
 * Members read everything and use the test panel; admins change pairs and settings (the API
 * refuses members with 403 anyway). Plans: spec §9, Starter lacks the AI autoresponder: the page
 * shows the plans feature's upgrade screen (PlanGate) instead; the API refuses turning it on.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AiSettings as AiSettingsSchema, FaqInput as FaqInputSchema, type AiSettings, type Faq, type FaqAttachment, type FaqInput } from '#shared/ai/ai.schemas.ts';
import { customerText, FAQ_SAVE_FAILED_MESSAGE, FAQ_UPLOAD_FAILED_MESSAGE, INSTRUCTIONS_CLOSE, INSTRUCTIONS_OPEN, instructionsOf, isAudioAttachment } from '#shared/ai/faq.rules.ts';
import { api, errorMessage, fieldErrors } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Tabs } from '../../../components/ui/Tabs.tsx';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { aiApi, aiKeys, faqFileMime, uploadFaqFile, type AiTestResult } from '../api/ai.ts';
import { csvToFaqs, faqsToCsv } from '../api/csv.ts';
import { PlanGate } from '../../plans/index.ts';
import './ai.css';

type Tab = 'faqs' | 'settings' | 'test';

export function AiPage() {
  return (
    <PlanGate feature="ai_autoresponder">
      <AiAgentPage />
    </PlanGate>
  );
}

function AiAgentPage() {
  const [tab, setTab] = useState<Tab>('faqs');
  return (
    <div className="page" data-testid="ai-page">
      <header className="page-header">
        <MenuButton />
        <h1>AI agent</h1>
      </header>
      <div className="page-body page-body-wide ai-page">
        <Tabs
          label="AI agent"
          value={tab}
          onChange={(v) => setTab(v as Tab)}
          items={[
            { value: 'faqs', label: 'Knowledge base', testId: 'ai-tab-faqs', panel: <KnowledgeBase /> },
            { value: 'settings', label: 'Settings', testId: 'ai-tab-settings', panel: <SettingsPanel /> },
            { value: 'test', label: 'Test', testId: 'ai-tab-test', panel: <TestPanel /> },
          ]}
        />
      </div>
    </div>
  );
}

function KnowledgeBase() {
  const { org } = useSession();
  const isAdmin = org.role === 'admin';
  const toast = useToast();
  const qc = useQueryClient();
  const [q, setQ] = useState('');
  const [editing, setEditing] = useState<Faq | 'new' | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState<string | null>(null);
  const list = useInfiniteQuery({
    queryKey: aiKeys.faqs(org.org_id, q.trim()),
    queryFn: ({ pageParam }) => aiApi.listFaqs(org.org_id, q.trim(), pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
  const faqs = useMemo(() => list.data?.pages.flatMap((p) => p.faqs) ?? [], [list.data]);
  // virtualized: a knowledge base holds up to 2000 pairs; rows are measured (answers wrap)
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: faqs.length, getScrollElement: () => scrollRef.current, estimateSize: () => 120, overscan: 6, gap: 8, getItemKey: (i) => faqs[i]?.id ?? i });
  const lastShown = virtualizer.getVirtualItems().at(-1)?.index ?? 0;
  useEffect(() => {
    if (list.hasNextPage && !list.isFetchingNextPage && lastShown >= faqs.length - 10) void list.fetchNextPage();
  }, [lastShown, faqs.length, list]);
  const refresh = () => qc.invalidateQueries({ queryKey: aiKeys.all(org.org_id) });
  const remove = useMutation({
    mutationFn: (id: string) => aiApi.deleteFaq(org.org_id, id),
    onSuccess: () => (toast.show('Pair deleted', 'success'), refresh()),
    onError: (e) => toast.show(errorMessage(e), 'error'),
  });

  async function exportCsv() {
    const all: Faq[] = [];
    let cursor: string | null = null;
    do {
      const page = await aiApi.listFaqs(org.org_id, '', cursor);
      all.push(...page.faqs);
      cursor = page.cursor;
    } while (cursor);
    const url = URL.createObjectURL(new Blob([faqsToCsv(all)], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'faq-pairs.csv';
    a.click();
    URL.revokeObjectURL(url);
  }

  async function importCsv(file: File) {
    const { pairs, skipped } = csvToFaqs(await file.text());
    let done = 0;
    const failed: string[] = [...skipped.map((s) => `row ${s.row}: ${s.reason}`)];
    for (const [i, p] of pairs.entries()) {
      setImporting(`Importing ${i + 1} of ${pairs.length}…`);
      const parsed = FaqInputSchema.safeParse(p);
      if (!parsed.success) {
        failed.push(`“${p.question.slice(0, 40)}”: ${parsed.error.issues[0]!.message}`);
        continue;
      }
      try {
        await aiApi.createFaq(org.org_id, parsed.data);
        done++;
      } catch (e) {
        failed.push(`“${p.question.slice(0, 40)}”: ${errorMessage(e)}`);
      }
    }
    setImporting(null);
    await refresh();
    toast.show(`Imported ${done} pair${done === 1 ? '' : 's'}${failed.length ? `; ${failed.length} skipped (${failed.slice(0, 2).join('; ')})` : ''}`, failed.length ? 'error' : 'success');
  }

  return (
    <section className="ai-section" aria-label="Knowledge base">
      <div className="ai-toolbar">
        <input type="search" className="ai-search" placeholder="Search questions and answers" value={q} onChange={(e) => setQ(e.target.value)} aria-label="Search pairs" data-testid="ai-faq-search" />
        <div className="ai-toolbar-actions">
          <button type="button" className="btn" onClick={() => void exportCsv()} data-testid="ai-export">
            Export CSV
          </button>
          {isAdmin && (
            <>
              <button type="button" className="btn" onClick={() => fileRef.current?.click()} disabled={!!importing} data-testid="ai-import">
                {importing ?? 'Import CSV'}
              </button>
              <input ref={fileRef} type="file" accept=".csv,text/csv" hidden onChange={(e) => (e.target.files?.[0] && void importCsv(e.target.files[0]), (e.target.value = ''))} />
              <button type="button" className="btn btn-primary" onClick={() => setEditing('new')} data-testid="ai-faq-add">
                <Icon name="plus" size={16} /> Add pair
              </button>
            </>
          )}
        </div>
      </div>
      {!isAdmin && <p className="notice">Only admins can change the knowledge base. You can read it and try it on the Test tab.</p>}
      {list.isPending && <p className="muted">Loading pairs…</p>}
      {list.error && <p role="alert">Could not load the pairs: {errorMessage(list.error)}</p>}
      {list.data && faqs.length === 0 && <p className="muted">{q ? 'No pair matches your search.' : 'No pairs yet. Add the questions your customers ask most, with your answers.'}</p>}
      <div ref={scrollRef} className="ai-faq-scroll">
        <ul className="ai-faq-list" data-testid="ai-faq-list" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const f = faqs[v.index]!;
            return (
              <li key={f.id} className="ai-faq" data-testid="ai-faq-row" data-index={v.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}>
                <div className="ai-faq-text">
                  <p className="ai-faq-q">{f.question}</p>
                  <p className="ai-faq-a">{customerText(f.answer)}</p>
                  <p className="ai-faq-meta muted small">
                    {instructionsOf(f.answer).length > 0 && <span className="ai-chip">Instructions</span>}
                    {f.attachments[0] && <span className="ai-chip"><Icon name="file" size={12} /> {f.attachments[0].name}</span>}
                  </p>
                </div>
                {isAdmin && (
                  <div className="ai-faq-actions">
                    <button type="button" className="btn btn-ghost" onClick={() => setEditing(f)} aria-label={`Edit “${f.question}”`}>
                      Edit
                    </button>
                    <button type="button" className="icon-btn" title="Delete pair" aria-label={`Delete “${f.question}”`} onClick={() => window.confirm('Delete this pair?') && remove.mutate(f.id)}>
                      <Icon name="trash" size={18} />
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      {list.hasNextPage && (
        <button type="button" className="btn" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
      {editing && <FaqEditor faq={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), void refresh())} />}
    </section>
  );
}

/** What the file picker offers: what WhatsApp sends as an image, video or document (spec §5: no audio). */
const ACCEPT = 'image/jpeg,image/png,video/mp4,video/3gpp,text/plain,application/pdf,.pdf,.txt,.doc,.docx,.xls,.xlsx,.ppt,.pptx';

/**
 * The FAQ pair editor (spec §2, §5, §7, §8): question, answer with an instructions block, one
 * attachment uploaded as a file (no audio) to the pair's folder before the pair is saved.
 */
export function FaqEditor({ faq, initial, onClose, onSaved }: { faq: Faq | null; initial?: Partial<FaqInput>; onClose: () => void; onSaved: (f: Faq) => void }) {
  const { org } = useSession();
  const toast = useToast();
  const [question, setQuestion] = useState(faq?.question ?? initial?.question ?? '');
  const [answer, setAnswer] = useState(faq?.answer ?? initial?.answer ?? '');
  const [attachment, setAttachment] = useState<FaqAttachment | null>(faq?.attachments[0] ?? initial?.attachments?.[0] ?? null);
  const [file, setFile] = useState<File | null>(null);
  /** a new pair's id once a file was uploaded for it (the upload mints it) */
  const [mintedId, setMintedId] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  async function save(e: FormEvent) {
    e.preventDefault();
    const pending = file ? { url: 'pending-upload', type: faqFileMime(file), name: file.name } : attachment;
    const parsed = FaqInputSchema.safeParse({ question, answer, attachments: pending ? [pending] : [] });
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    setBusy(true);
    setError(null);
    let id = faq?.id ?? mintedId;
    let attachments = attachment ? [attachment] : [];
    if (file) {
      try {
        const up = await uploadFaqFile(org.org_id, id, file);
        id = up.faq_id;
        if (!faq) setMintedId(up.faq_id);
        attachments = [up.attachment];
        setAttachment(up.attachment);
        setFile(null);
      } catch (err) {
        const details = fieldErrors(err);
        setError(details.length ? `${FAQ_UPLOAD_FAILED_MESSAGE}: ${details.map((d) => d.reason).join('; ')}` : FAQ_UPLOAD_FAILED_MESSAGE);
        toast.show(FAQ_UPLOAD_FAILED_MESSAGE, 'error');
        setBusy(false);
        return;
      }
    }
    try {
      const input = { ...parsed.data, attachments };
      const saved = faq ? await aiApi.updateFaq(org.org_id, faq.id, input) : await aiApi.createFaq(org.org_id, { ...input, ...(id ? { id } : {}) });
      toast.show('Q&A pair saved', 'success');
      onSaved(saved);
    } catch (err) {
      const details = fieldErrors(err);
      setError(details.length ? details.map((d) => d.reason).join('; ') : FAQ_SAVE_FAILED_MESSAGE);
      toast.show(FAQ_SAVE_FAILED_MESSAGE, 'error');
    } finally {
      setBusy(false);
    }
  }

  function pick(f: File | undefined) {
    if (!f) return;
    if (isAudioAttachment({ type: faqFileMime(f), name: f.name })) {
      setError('Audio attachments are not supported');
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setError(null);
    setFile(f);
  }

  const shown = file ? { name: file.name, note: 'uploads when you save' } : attachment ? { name: attachment.name, note: null } : null;
  return (
    <Dialog title={faq ? 'Edit Q&A pair' : 'New Q&A pair'} onClose={onClose} testId="ai-faq-editor" className="ai-editor">
      <form onSubmit={(e) => void save(e)} className="settings-form" noValidate>
        <label className="field">
          <span>Question</span>
          <textarea value={question} onChange={(e) => setQuestion(e.target.value)} rows={2} maxLength={1000} placeholder="How much does shipping cost?" data-testid="ai-faq-question" />
        </label>
        <label className="field">
          <span>Answer</span>
          <textarea value={answer} onChange={(e) => setAnswer(e.target.value)} rows={5} maxLength={4000} placeholder="Standard shipping costs 4.90 EUR…" data-testid="ai-faq-answer" />
        </label>
        <p className="muted small">
          Text between {INSTRUCTIONS_OPEN} and {INSTRUCTIONS_CLOSE} guides the agent (e.g. “hand off to a human if the customer is upset”) and is never shown to customers.{' '}
          <button type="button" className="link-btn" onClick={() => setAnswer((a) => `${a.trimEnd()}\n${INSTRUCTIONS_OPEN}${INSTRUCTIONS_CLOSE}`)}>
            Add instructions
          </button>
        </p>
        <fieldset className="ai-attachment">
          <legend>Attachment (one; an image, a video or a document — audio is not supported). The agent sends it with its answer.</legend>
          {shown ? (
            <span className="ai-chip" data-testid="ai-faq-attachment">
              <Icon name="file" size={12} /> {shown.name}
              {shown.note && <span className="muted small"> ({shown.note})</span>}
              <button type="button" className="link-btn" onClick={() => (setFile(null), setAttachment(null), fileInput.current && (fileInput.current.value = ''))} aria-label={`Remove ${shown.name}`}>
                Remove
              </button>
            </span>
          ) : (
            <span className="muted small">No file</span>
          )}
          <input ref={fileInput} type="file" accept={ACCEPT} onChange={(e) => pick(e.target.files?.[0])} aria-label="Attachment file" data-testid="ai-faq-file" />
        </fieldset>
        {error && (
          <p className="ai-error" role="alert" data-testid="ai-faq-error">
            {error}
          </p>
        )}
        <div className="ai-dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="ai-faq-save">
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function SettingsPanel() {
  const { org } = useSession();
  const isAdmin = org.role === 'admin';
  const toast = useToast();
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: aiKeys.settings(org.org_id), queryFn: () => aiApi.getSettings(org.org_id) });
  const phones = useQuery({ queryKey: ['orgs', org.org_id, 'phones'], queryFn: () => api.phones(org.org_id) });
  const [draft, setDraft] = useState<AiSettings | null>(null);
  const s = draft ?? settings.data ?? null;
  const save = useMutation({
    mutationFn: (input: AiSettings) => aiApi.saveSettings(org.org_id, input),
    onSuccess: (saved) => (qc.setQueryData(aiKeys.settings(org.org_id), saved), setDraft(null), toast.show('AI settings saved', 'success')),
    onError: (e) => toast.show(errorMessage(e), 'error'),
  });
  if (settings.isPending) return <p className="muted">Loading settings…</p>;
  if (settings.error || !s) return <p role="alert">Could not load the settings: {errorMessage(settings.error)}</p>;
  const set = (change: Partial<AiSettings>) => setDraft({ ...s, ...change });
  const setShift = (change: Partial<AiSettings['shift']>) => set({ shift: { ...s.shift, ...change } });

  return (
    <form
      className="settings-form ai-settings"
      data-testid="ai-settings"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = AiSettingsSchema.safeParse(s);
        if (!parsed.success) return toast.show(`${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`, 'error');
        save.mutate(parsed.data);
      }}
    >
      <fieldset disabled={!isAdmin} className="ai-fieldset">
        {!isAdmin && <p className="notice">Only admins can change the AI agent&apos;s settings.</p>}
        <label className="ai-check">
          <input type="checkbox" checked={s.enabled} onChange={(e) => set({ enabled: e.target.checked })} data-testid="ai-enabled" />
          <span>
            <strong>AI agent on</strong> — answers customers from the knowledge base
          </span>
        </label>
        {(phones.data?.phones.length ?? 0) > 1 && (
          <div className="ai-group">
            <span className="ai-label">Numbers</span>
            {phones.data!.phones.map((p) => (
              <label key={p.phone_id} className="ai-check">
                <input type="checkbox" checked={s.phones[p.phone_id] !== false} onChange={(e) => set({ phones: { ...s.phones, [p.phone_id]: e.target.checked } })} />
                <span>{(p as { display_phone_number?: string; org_phone?: string }).display_phone_number ?? (p as { org_phone?: string }).org_phone ?? p.phone_id}</span>
              </label>
            ))}
          </div>
        )}
        <label className="field">
          <span>New chats</span>
          <select value={s.default_activation} onChange={(e) => set({ default_activation: e.target.value as AiSettings['default_activation'] })}>
            <option value="auto">Active automatically</option>
            <option value="manual">Inactive until someone hands the chat to the agent</option>
          </select>
        </label>
        <label className="field">
          <span>Nickname shown to customers</span>
          <input value={s.nickname} maxLength={40} onChange={(e) => set({ nickname: e.target.value })} data-testid="ai-nickname" />
        </label>
        <div className="ai-row">
          <label className="field">
            <span>Response delay (seconds)</span>
            <input type="number" min={0} max={600} value={s.response_delay_seconds} onChange={(e) => set({ response_delay_seconds: Number(e.target.value) })} />
          </label>
          <label className="field">
            <span>Pause after a human replies (minutes, 0 = until handed back)</span>
            <input type="number" min={0} max={10080} value={s.pause_after_human_minutes} onChange={(e) => set({ pause_after_human_minutes: Number(e.target.value) })} />
          </label>
        </div>
        <label className="ai-check">
          <input type="checkbox" checked={s.shift.enabled} onChange={(e) => setShift({ enabled: e.target.checked })} />
          <span>Answer only during shift hours</span>
        </label>
        {s.shift.enabled && (
          <div className="ai-shift">
            <div className="ai-days" role="group" aria-label="Shift days">
              {DAYS.map((d, i) => (
                <label key={d} className="ai-day">
                  <input type="checkbox" checked={s.shift.days.includes(i)} onChange={(e) => setShift({ days: e.target.checked ? [...s.shift.days, i].sort() : s.shift.days.filter((x) => x !== i) })} />
                  {d}
                </label>
              ))}
            </div>
            <div className="ai-row">
              <label className="field">
                <span>From</span>
                <input type="time" value={s.shift.start} onChange={(e) => setShift({ start: e.target.value })} />
              </label>
              <label className="field">
                <span>To</span>
                <input type="time" value={s.shift.end} onChange={(e) => setShift({ end: e.target.value })} />
              </label>
              <label className="field">
                <span>Time zone</span>
                <input value={s.shift.timezone} onChange={(e) => setShift({ timezone: e.target.value })} placeholder="Europe/Lisbon" />
              </label>
            </div>
          </div>
        )}
        <label className="ai-check">
          <input type="checkbox" checked={s.passive_mode} onChange={(e) => set({ passive_mode: e.target.checked })} />
          <span>
            <strong>Passive mode</strong> — suggest answers as private notes, never reply to customers
          </span>
        </label>
        <label className="ai-check">
          <input type="checkbox" checked={s.answer_groups} onChange={(e) => set({ answer_groups: e.target.checked })} />
          <span>Answer in group chats too (contacts marked internal are never answered)</span>
        </label>
        <label className="field">
          <span>Confidence threshold (0–1; empty = default). Below it the agent hands the chat to the team.</span>
          <input type="number" min={0} max={1} step={0.05} value={s.confidence_threshold ?? ''} onChange={(e) => set({ confidence_threshold: e.target.value === '' ? null : Number(e.target.value) })} />
        </label>
      </fieldset>
      {isAdmin && (
        <div>
          <button type="submit" className="btn btn-primary" disabled={!draft || save.isPending} data-testid="ai-settings-save">
            {save.isPending ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      )}
    </form>
  );
}

function TestPanel() {
  const { org } = useSession();
  const [question, setQuestion] = useState('');
  const [result, setResult] = useState<AiTestResult | null>(null);
  const ask = useMutation({ mutationFn: (q: string) => aiApi.test(org.org_id, q), onSuccess: setResult });
  return (
    <section className="ai-section" aria-label="Test the agent">
      <form
        className="ai-test-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (question.trim()) ask.mutate(question.trim());
        }}
      >
        <input value={question} onChange={(e) => setQuestion(e.target.value)} placeholder="Ask what a customer would ask…" aria-label="Test question" maxLength={2000} data-testid="ai-test-question" />
        <button type="submit" className="btn btn-primary" disabled={ask.isPending || !question.trim()} data-testid="ai-test-ask">
          {ask.isPending ? 'Asking…' : 'Ask'}
        </button>
      </form>
      <p className="muted small">Nothing is sent to anyone.</p>
      {ask.error && <p role="alert">{errorMessage(ask.error)}</p>}
      {result && (
        <div className="ai-test-result" data-testid="ai-test-result">
          <p>
            <strong>{result.handoff ? 'Would hand off to the team' : 'Would answer'}</strong> · confidence {Math.round(result.confidence * 100)}%
          </p>
          {result.answer ? <blockquote className="ai-answer">{result.answer}</blockquote> : <p className="muted">{result.reason === 'instructions' ? "The pair's instructions ask for a human." : result.reason === 'no_pairs' ? 'The knowledge base is empty.' : 'No pair matches well enough.'}</p>}
          {result.candidates.length > 0 && (
            <ol className="ai-candidates">
              {result.candidates.map((c) => (
                <li key={c.faq_id}>
                  {c.question} <span className="muted">({Math.round(c.score * 100)}%)</span>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
