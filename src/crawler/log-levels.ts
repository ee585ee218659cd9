/** Log level names (no logger here: spider configs import this without loading Crawlee). */
export const LOG_LEVELS = ['debug', 'info', 'warning', 'error', 'off'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export function isLogLevel(v: unknown): v is LogLevelName {
  return typeof v === 'string' && (LOG_LEVELS as readonly string[]).includes(v);
}
