import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config.ts';

/**
 * Structured JSON log lines through Powertools for AWS Lambda's Logger (one JSON object per line
 * on stdout/stderr: `level`, `message`, `timestamp`, `service`, the Lambda context in AWS, then the
 * correlation ids and the call's fields). The same lines come out of the local runtime.
 * Level from `LOG_LEVEL` (debug | info | warn | error | silent; tests set silent).
 *
 * Correlation ids (`request_id`, `org_id`, `event_id`, `message_id`, …) live in an async context,
 * not on the shared logger, so concurrent requests and records in one process (the local runtime,
 * a batch processed in parallel) never see each other's ids: `withLogContext` opens one (the HTTP
 * and queue wrappers do), `addLogContext` adds to the current one (e.g. org_id once the path is
 * parsed), and every `log()` inside carries them.
 */
export const logger = new Logger({ serviceName: 'chorus', logLevel: 'INFO' });

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
type Fields = Record<string, unknown>;

const context = new AsyncLocalStorage<Fields>();
let appliedLevel: string | undefined;

/** Runs `fn` with correlation fields every log line inside it carries (nested contexts inherit the outer fields). */
export function withLogContext<T>(fields: Fields, fn: () => T): T {
  return context.run({ ...context.getStore(), ...defined(fields) }, fn);
}

/** Adds correlation fields to the current context (no-op outside one). */
export function addLogContext(fields: Fields): void {
  const store = context.getStore();
  if (store) Object.assign(store, defined(fields));
}

/** The correlation fields of the current context (empty outside one). */
export const logContext = (): Readonly<Fields> => ({ ...context.getStore() });

/** One structured log line: `msg` is the event name (e.g. 'http.unhandled'), `data` its fields. */
export function log(level: LogLevel, msg: string, data: Fields = {}): void {
  const want = config().LOG_LEVEL.toUpperCase();
  if (want !== appliedLevel) {
    logger.setLogLevel(want as 'INFO');
    appliedLevel = want;
  }
  logger[level](msg, { ...context.getStore(), ...data });
}

function defined(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
