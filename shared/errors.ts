/**
 * One error family for the whole domain (house style: `AppError(code, message, { status, details })`).
 * HTTP renders it as `{ error: { code, message, details } }`; anything that is not an AppError
 * becomes a logged 500 with no internals leaked.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;

  /**
   * @param code stable dotted code, e.g. `chat.not_found`
   * @param message words a person understands (spec §8 wording where the spec gives one)
   * @param opts.status HTTP status to render (default 400)
   * @param opts.details extra machine-readable detail, e.g. `[{ field, reason }]`
   */
  constructor(code: string, message: string, opts: { status?: number; details?: unknown } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = opts.status ?? 400;
    this.details = opts.details;
  }
}

/** 404 that never says whether the thing exists in another organization. */
export const notFound = (what: string) => new AppError(`${what}.not_found`, `That ${what} does not exist or you cannot see it.`, { status: 404 });

/** Type guard used by handlers and consumers. */
export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
