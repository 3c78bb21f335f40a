// What a project's own .roz/config.toml may set. The project is writable by the
// agent roz polices, so its file may only make roz stricter than the user's
// configuration: a key absent here is refused from a project file (the user's
// file and the environment still set it), and a key present here keeps the
// user's value whenever the project's would loosen it. Pure.

/** The value to use, or why the project's value is refused. */
export type Tighten = (current: unknown, proposed: unknown) => { value: unknown } | { refused: string };

/** Values in order from loosest to strictest: the project may move right, never left. */
const ordered =
  (order: readonly string[]): Tighten =>
  (current, proposed) =>
    order.indexOf(String(proposed)) >= order.indexOf(String(current))
      ? { value: proposed }
      : { refused: `${JSON.stringify(proposed)} is looser than ${JSON.stringify(current)} (strictest last: ${order.join(' < ')})` };

const atLeast: Tighten = (current, proposed) =>
  (proposed as number) >= (current as number)
    ? { value: proposed }
    : { refused: `${String(proposed)} is below ${String(current)}; a project may only raise it` };

const atMost: Tighten = (current, proposed) =>
  (proposed as number) <= (current as number)
    ? { value: proposed }
    : { refused: `${String(proposed)} is above ${String(current)}; a project may only lower it` };

/** Gates are added to the user's, never replace them. */
const moreGates: Tighten = (current, proposed) => ({ value: [...new Set([...(current as string[]), ...(proposed as string[])])] });

/** 0 means approvals never expire, so any positive time is stricter than 0. */
const shorterTtl: Tighten = (current, proposed) => {
  const cur = current as number;
  const next = proposed as number;
  return next > 0 && (cur === 0 || next <= cur)
    ? { value: next }
    : { refused: `${next} would let approvals live longer than ${cur === 0 ? 'the user allows' : `${cur} s`}` };
};

/** A switch a project may only turn off. */
const onlyOff: Tighten = (current, proposed) =>
  proposed === false || proposed === current ? { value: proposed } : { refused: 'a project may only turn it off' };

/**
 * Keys a project file may set, each with its tightening rule. Not here, so
 * never from a project: storage.path, cleanup, external_models (commands the
 * reviewer runs), templates, telemetry (where data goes), enforce.network, notify (a program the supervisor runs),
 * review.reviewer_timeout_seconds, and every key added without a rule here.
 */
export const projectSettable: Record<string, Tighten> = {
  'review.mode': ordered(['never', 'prompt', 'always']),
  'review.gates': moreGates,
  'review.approval_scope': ordered(['session', 'prompt', 'tool']),
  'review.approval_ttl_seconds': shorterTtl,
  'review.second_opinion': ordered(['off', 'advisory', 'required']),
  'circuit_breaker.max_blocks': atLeast,
  'circuit_breaker.cooldown_seconds': atMost,
  'guard.destructive': ordered(['off', 'ask', 'deny']),
  'governance.allow_temp_writes': onlyOff,
};
