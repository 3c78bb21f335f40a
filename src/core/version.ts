// roz's version, as the build stamps it (scripts/build.mjs defines ROZ_VERSION);
// unbuilt sources (tests, tsx) say 0.0.0-dev. Its own module so that naming
// the version (ledger records, the MCP server, `roz --version`) loads nothing else.
declare const ROZ_VERSION: string;

export const rozVersion = typeof ROZ_VERSION === 'string' ? ROZ_VERSION : '0.0.0-dev';
