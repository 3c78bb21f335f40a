// A command's misuse (bad arguments, a session that cannot be resolved): main.ts prints its
// message and exits with its code. Its own module, so main.ts can catch it without loading the
// config and the store (context.ts) before it knows which command runs.
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
