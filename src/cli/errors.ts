/** An error the CLI prints as one clear line (no stack) before exiting non-zero. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'UsageError';
  }
}
