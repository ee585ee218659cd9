/** A plain stderr logger for crawls (Crawlee's own log is kept at ERROR so ours stays readable). */
import type { Logger } from '../core/middleware.js';

const LEVELS = { debug: 10, info: 20, warning: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

export function consoleLogger(prefix: string, level: LogLevel = (process.env.GLEANER_LOG_LEVEL as LogLevel) || 'info'): Logger {
  const min = LEVELS[level] ?? LEVELS.info;
  const out = (lvl: LogLevel, tag: string) => (msg: string, data?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    process.stderr.write(`${prefix} ${tag}${msg}${data ? ' ' + JSON.stringify(data) : ''}\n`);
  };
  return { debug: out('debug', 'debug: '), info: out('info', ''), warning: out('warning', 'warning: '), error: out('error', 'error: ') };
}
