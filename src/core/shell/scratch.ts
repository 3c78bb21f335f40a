// Scratch areas as a command names them: paths under /tmp, /var/tmp or $TMPDIR, never the area itself.

/** Temp roots whose contents are scratch: what is under them, never the root itself. */
const TEMP_ROOT =
  /^(?:\/tmp|\/var\/tmp|\/private\/tmp|\/private\/var\/tmp|\$\{?(?:TMPDIR|CLAUDE_CODE_TMPDIR)\}?|\$\{(?:TMPDIR|CLAUDE_CODE_TMPDIR):-\/tmp\})\/(.+)$/;

/**
 * Something inside a scratch area (`/tmp/x`, `/var/tmp/x`, `$TMPDIR/x`, `${TMPDIR:-/tmp}/x`):
 * the first component names one entry (`/tmp/roz-*`, not `/tmp/*`), and no `..` climbs out.
 */
export function isScratchPath(path: string): boolean {
  const m = TEMP_ROOT.exec(path.replace(/\/{2,}/g, '/'));
  if (m === null) return false;
  const rest = m[1]!.replace(/\/+$/, '');
  if (rest === '' || rest.split('/').some((s) => s === '..')) return false;
  const first = rest.split('/')[0]!;
  return first !== '.' && /[^*?[\]{}]/.test(first) && !/^[*?]+$/.test(first) && !/[$`]/.test(rest);
}
