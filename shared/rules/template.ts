import { Liquid } from 'liquidjs';

/**
 * Message templates of rule actions (issue 17 §3): Liquid syntax through liquidjs, e.g.
 * `Hi {{contact.name | default: 'there'}}`. Variables: `contact` (name, number, properties),
 * `chat` (name, assignee, labels), `message` (body), `org`, `now` (ISO). Unknown variables render
 * empty (not an error); a template that does not parse renders as its raw text and `error` says
 * why. Rendering is bounded (no includes/file system, render time and output length limits).
 */
const engine = new Liquid({ strictVariables: false, strictFilters: true, ownPropertyOnly: true, renderLimit: 200, parseLimit: 10_000, memoryLimit: 1e6, relativeReference: false, templates: {} });

export interface RenderResult {
  text: string;
  error?: string;
}

/** Render a template with variables. Never throws. */
export async function renderTemplate(template: string, vars: Record<string, unknown>): Promise<RenderResult> {
  try {
    const out = await engine.parseAndRender(template, vars);
    return { text: out.slice(0, 4096) };
  } catch (e) {
    return { text: template, error: (e as Error).message };
  }
}

/** Synchronous check used by the API: does the template parse? Returns the reason or null. */
export function templateProblem(template: string): string | null {
  try {
    engine.parse(template);
    return null;
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  }
}
