/**
 * Command-line option checks shared by the commands: every bad value is one clear message and
 * exit code 2 (ARCHITECTURE §5), before anything is read, fetched or written.
 */
import { UsageError } from './errors.js';
import { CSV_ROWS, FeedError, checkFeed, parseOutArg, type CsvRows, type FeedSpec } from '../storage/feed-sink.js';

/** An IANA zone Intl knows (`Asia/Shanghai`, `UTC`, `+08:00` is not one). */
export function checkTimezone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    throw new UsageError(`--timezone: unknown IANA time zone "${tz}" (e.g. Asia/Shanghai, Europe/Berlin, UTC)`);
  }
}

/** commander collector for repeatable options. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--out FILE[:FORMAT]` (repeatable) with `--bom` and `--csv-rows` → feed specs, checked. */
export function feedsFromCli(outs: string[], o: { bom?: boolean; csvRows?: string }): FeedSpec[] {
  if (o.csvRows !== undefined && !(CSV_ROWS as readonly string[]).includes(o.csvRows)) throw new UsageError(`--csv-rows must be one of ${CSV_ROWS.join(', ')} (got "${o.csvRows}")`);
  const specs: FeedSpec[] = [];
  try {
    for (const arg of outs) {
      const spec = parseOutArg(arg);
      const csv = checkFeed(spec) === 'csv';
      if (csv && o.bom) spec.bom = true;
      if (csv && o.csvRows) spec.rows = o.csvRows as CsvRows;
      specs.push(spec);
    }
  } catch (e) {
    if (e instanceof FeedError) throw new UsageError(e.message.replace(/^feed /, '--out '));
    throw e;
  }
  if ((o.bom || o.csvRows) && !specs.some((s) => checkFeed(s) === 'csv')) throw new UsageError(`${o.bom ? '--bom' : '--csv-rows'} applies to CSV outputs, and no --out names a .csv file`);
  return specs;
}
