// The on-demand effects module (issue 30): the human's one line names the object and
// where it lives; the cheap hint (effects-hint.ts) says yes for every command the module
// would flag, so a hook that has not loaded it never lets one through; and a caller that
// does not load it gets an ask (fail closed), not a pass.
import { beforeAll, describe, expect, it } from 'vitest';
import { guardVerdict } from '../../../src/core/guard.js';
import { loadAllOnDemand } from '../../../src/core/on-demand.js';
import { classifyDestructive, installEffects } from '../../../src/core/shell/destructive.js';
import * as effects from '../../../src/core/shell/effects.js';
import { MUST_ASK } from '../guard/guard-corpus.js';
import { TUNING_MUST_ASK } from '../guard/guard-effects-corpus.js';
import { HELDOUT_MUST_ASK } from '../guard/guard-heldout.js';

beforeAll(loadAllOnDemand);

const human = (command: string): string | undefined => {
  const v = guardVerdict(classifyDestructive(command), 'x', 'ask').verdict;
  return v.kind === 'ask' ? v.human : undefined;
};

describe('effects: the human line', () => {
  it.each([
    ['flyctl apps destroy shop --yes', 'destroys shop (flyctl apps destroy)'],
    ['argocd app delete shop --cascade --project prod', 'deletes shop in prod (argocd app delete)'],
    ['helm uninstall shop -n prod', 'uninstalls shop in prod (helm uninstall)'],
    ['redis-cli -h prod FLUSHALL', 'flushes all its data on prod (redis-cli FLUSHALL)'],
    ['docker exec tools koyeb app delete shop', 'deletes shop (koyeb app delete) through docker exec'],
    ['npx wrangler d1 delete shop-db -y', 'deletes shop-db (wrangler d1 delete) through npx'],
    ['aws --profile prod s3 rm s3://b --recursive', 'removes s3://b in prod (aws s3 rm)'],
    ['npm publish', 'publishes this project to its registry (npm publish)'],
    ['> .env', 'empties the secrets file .env (> .env)'],
    ['aws s3 sync ./build s3://site --delete', 'deletes what s3://site has and ./build lacks (aws s3 sync --delete)'],
    ['sudo ufw disable', 'switches the firewall off (ufw disable) through sudo'],
    ['chmod 777 /etc/shadow', 'makes the system file /etc/shadow writable by everyone (chmod 777)'],
  ])('%s → %s', (command, line) => {
    expect(human(command)).toBe(line);
  });
});

describe('effects: loaded on demand', () => {
  it('the hint says yes for every must-ask command the module flags (its own classes and the lazy rules)', () => {
    const lazyIds = new Set(effects.LAZY_RULES.map((r) => r.id));
    const flaggedByModule = [...MUST_ASK, ...TUNING_MUST_ASK, ...HELDOUT_MUST_ASK]
      .map(([c]) => c)
      .filter((c) => classifyDestructive(c).findings.some((f) => f.effect !== undefined || lazyIds.has(f.rule)));
    expect(flaggedByModule.length).toBeGreaterThan(150);
    installEffects(undefined);
    try {
      const unseen = flaggedByModule.filter((c) => classifyDestructive(c).needsEffects !== true);
      expect(unseen).toEqual([]);
      // Not loaded: an ask naming why, not a pass.
      expect(classifyDestructive('koyeb app delete shop').findings.map((f) => f.rule)).toEqual(['effects-unloaded']);
      // A command with no hint word never needs the module.
      expect(classifyDestructive('npm test -- --run && git diff --stat')).toMatchObject({ destructive: false });
    } finally {
      installEffects(effects);
    }
  });
});
