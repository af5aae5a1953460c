/**
 * How much of the chat header's tools fit beside the customer's name (issue 49 item 2: the name
 * was crushed to 'Bru…' once Take over and Details showed). The name and number keep TITLE_ROOM;
 * the tools give way in steps: the assignee's name goes, Labels and Snooze move into "⋯", then
 * Assign and Close, then Create task, and last Take over / Hand back shows as its icon only.
 *
 * Measured on the header (ThreadHeader): the widths of what never changes with the step (back,
 * avatar, SLA badge, Details, Close) are read from the page; the steps' own widths are known from
 * the CSS (.icon-btn 36 px, the assignee's pill at most 170 px, 2 px between tools). Children that
 * change with the step carry `data-fit` ('title', 'actions', 'ai', 'task') and are not read, so a
 * step never feeds back into the measure.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/useMediaQuery.ts';

export type ActionsFit = 'full' | 'no-text' | 'narrow' | 'compact';

export interface HeaderFit {
  /** the chat actions (ChatActions): all with the assignee's name, without it, Assign and Close only, or only "⋯" */
  actions: ActionsFit;
  /** Take over / Hand back with its word (else its icon only) */
  aiText: boolean;
  /** Create task as a header button (else an item of "⋯") */
  taskInHeader: boolean;
}

/** px the name and number keep before any tool shows in full */
const TITLE_ROOM = 180;
const ICON = 36;
const TOOL_GAP = 2;
/** ChatActions' width (px) at each step: the assignee's pill (≤ 170 px with the name, 34 px without), Labels, Snooze, Close, "⋯" */
const ACTIONS_PX: Record<ActionsFit, number> = {
  full: 170 + 4 * (ICON + TOOL_GAP),
  'no-text': 34 + 4 * (ICON + TOOL_GAP),
  narrow: 34 + 2 * (ICON + TOOL_GAP),
  compact: ICON,
};
/** Take over with its word, until measured */
const AI_TEXT_PX = 110;

/** The steps, roomiest first; phones start at the fourth (every chat action in "⋯", as before). */
export const FIT_STEPS: readonly HeaderFit[] = [
  { actions: 'full', aiText: true, taskInHeader: true },
  { actions: 'no-text', aiText: true, taskInHeader: true },
  { actions: 'narrow', aiText: true, taskInHeader: true },
  { actions: 'compact', aiText: true, taskInHeader: true },
  { actions: 'compact', aiText: true, taskInHeader: false },
  { actions: 'compact', aiText: false, taskInHeader: false },
];
const PHONE_FIRST_STEP = 3;

const px = (v: string): number => parseFloat(v) || 0;

/** Width of the children of `box` that do not change with the step, and how many show. */
function fixedPart(box: Element): { width: number; shown: number; ai: HTMLElement | null; actions: boolean } {
  let width = 0;
  let shown = 0;
  let ai: HTMLElement | null = null;
  let actions = false;
  for (const el of Array.from(box.children) as HTMLElement[]) {
    const kind = el.dataset.fit;
    if (kind === 'ai') ai = el.childElementCount > 0 ? el : null;
    else if (kind === 'actions') actions = true;
    else if (kind === 'title' || kind === 'tools') shown++;
    else if (kind !== 'task' && el.offsetWidth > 0) {
      width += el.offsetWidth;
      shown++;
    }
  }
  return { width, shown, ai, actions };
}

/**
 * The step for `header` (the .thread-header, whose tools sit in its `[data-fit="tools"]` child).
 * @param aiTextPx Take over's width with its word (px)
 * @returns an index into FIT_STEPS
 */
export function pickStep(header: HTMLElement, aiTextPx: number, phone: boolean): number {
  const cs = getComputedStyle(header);
  const inner = header.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight);
  const outer = fixedPart(header);
  const toolsBox = header.querySelector<HTMLElement>(':scope > [data-fit="tools"]');
  const tools = toolsBox ? fixedPart(toolsBox) : { width: 0, shown: 0, ai: null, actions: false };
  const outerUsed = outer.width + px(cs.columnGap) * Math.max(0, outer.shown - 1);
  for (let i = phone ? PHONE_FIRST_STEP : 0; i < FIT_STEPS.length; i++) {
    const step = FIT_STEPS[i]!;
    let w = tools.width;
    let n = tools.shown;
    if (tools.actions) {
      w += ACTIONS_PX[step.actions];
      n++;
    }
    if (tools.ai) {
      w += step.aiText ? aiTextPx : ICON;
      n++;
    }
    if (step.taskInHeader) {
      w += ICON;
      n++;
    }
    if (inner - outerUsed - w - TOOL_GAP * Math.max(0, n - 1) >= TITLE_ROOM) return i;
  }
  return FIT_STEPS.length - 1;
}

/** The header's step, re-measured when the header changes size, the AI controls load, or the header renders. */
export function useHeaderFit(headerRef: RefObject<HTMLElement | null>): HeaderFit {
  const phone = useMediaQuery(PHONE_QUERY);
  const [step, setStep] = useState(phone ? PHONE_FIRST_STEP : 0);
  const aiTextPx = useRef(AI_TEXT_PX);
  const observer = useRef<ResizeObserver | null>(null);
  const watched = useRef(new WeakSet<Element>());
  const measure = useRef(() => {});
  measure.current = () => {
    const header = headerRef.current;
    if (!header) return;
    const ai = header.querySelector<HTMLElement>('[data-fit="ai"]');
    if (ai && ai.dataset.text === 'true' && ai.offsetWidth > 0) aiTextPx.current = ai.offsetWidth;
    setStep(pickStep(header, aiTextPx.current, phone));
  };

  useLayoutEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => measure.current());
    observer.current = ro;
    watched.current = new WeakSet();
    return () => {
      ro.disconnect();
      observer.current = null;
    };
  }, []);

  // every render: what the header shows may have changed (the name, the SLA badge, the AI controls appearing)
  useLayoutEffect(() => {
    const header = headerRef.current;
    const ro = observer.current;
    if (header && ro) {
      for (const el of [header, ...Array.from(header.querySelectorAll('[data-fit="ai"]'))]) {
        if (watched.current.has(el)) continue;
        watched.current.add(el);
        ro.observe(el);
      }
    }
    measure.current();
  });

  return FIT_STEPS[step]!;
}

/** What ChatActions shows in the header at `actions` (the rest goes into "⋯"). */
export function actionsInHeader(actions: ActionsFit) {
  const compact = actions === 'compact';
  const wide = actions === 'full' || actions === 'no-text';
  return {
    compact,
    noText: actions !== 'full',
    inHeader: { assign: !compact, close: !compact, labels: wide, snooze: wide },
  };
}
