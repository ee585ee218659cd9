/** An error the CLI prints as one clear line (no stack) before exiting non-zero. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `--url` of the commands that read saved pages: an absolute URL (it resolves the page's links and
 * names its site), checked before any page is read. */
export function checkUrlOption(url: string | undefined): void {
  if (url !== undefined && !URL.canParse(url)) throw new UsageError(`--url must be an absolute URL (got ${JSON.stringify(url)})`);
}
