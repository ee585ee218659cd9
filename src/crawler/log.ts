/**
 * The crawl's log: Crawlee's logger (@apify/log, what `crawlee`'s `log` is) with the spider's name
 * as prefix and a timestamp on every line, written to standard error (standard output carries the
 * summary). Its level: `--log-level`, else the spider's `logLevel`, else GLEANER_LOG_LEVEL, else
 * info. Crawlee's own internal log stays off during a crawl: our lines report failures with their
 * reasons, Crawlee's would repeat each with a stack.
 */
import { Log, LoggerText, LogLevel } from '@crawlee/core';
import type { Logger } from '../core/middleware.js';

import { isLogLevel, type LogLevelName } from './log-levels.js';

export { LOG_LEVELS, isLogLevel, type LogLevelName } from './log-levels.js';
/** The old name of the type (`consoleLogger(prefix, level)`). */
export type { LogLevelName as LogLevel };

const TO_CRAWLEE: Record<LogLevelName, LogLevel> = { debug: LogLevel.DEBUG, info: LogLevel.INFO, warning: LogLevel.WARNING, error: LogLevel.ERROR, off: LogLevel.OFF };

/** ANSI colour codes, left out when standard error is not a terminal (a file, a pipe, CI). */
const ANSI = /\x1b\[[0-9;]*m/g;

/** Crawlee's text logger, on standard error. */
class StderrLogger extends LoggerText {
  override _outputWithConsole(_level: LogLevel, line: string): void {
    process.stderr.write((process.stderr.isTTY ? line : line.replace(ANSI, '')) + '\n');
  }
}

/** The level to use: an explicit one, else GLEANER_LOG_LEVEL, else info. */
export function resolveLogLevel(level?: string): LogLevelName {
  if (isLogLevel(level)) return level;
  const env = process.env.GLEANER_LOG_LEVEL;
  return isLogLevel(env) ? env : 'info';
}

export function consoleLogger(prefix: string, level?: LogLevelName): Logger {
  const name = resolveLogLevel(level);
  const log = new Log({ level: TO_CRAWLEE[name], prefix, logger: new StderrLogger({ skipTime: false }) });
  return {
    debug: (msg, data) => log.debug(msg, data),
    info: (msg, data) => log.info(msg, data),
    warning: (msg, data) => log.warning(msg, data),
    error: (msg, data) => log.error(msg, data),
    debugEnabled: name === 'debug',
  };
}
