import { config } from './config.ts';

/**
 * Structured JSON log lines (one per call) on stdout/stderr, CloudWatch-friendly.
 * Level from `LOG_LEVEL` (silent in tests when set).
 */
const ORDER = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

export function log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, data: Record<string, unknown> = {}): void {
  if (ORDER[level] < ORDER[config().LOG_LEVEL]) return;
  const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...data });
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
}
