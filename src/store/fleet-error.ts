// What a fleet command (`roz agent add/ls/rm/merge/diff`, the registry) says
// when it cannot do what was asked, with the exit code the CLI ends with.
export class FleetError extends Error {
  override name = 'FleetError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
