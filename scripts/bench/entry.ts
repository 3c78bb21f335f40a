// One bundled entry for every in-process benchmark section. scripts/bench.mjs
// runs each section in its own process (`node entry.mjs <section> <args...>`)
// so sections do not share heaps or JIT state; each prints one JSON line.
// Sections are imported lazily: a ledger writer does not load Ink.
const [section, ...args] = process.argv.slice(2);
const num = (i: number): number => Number(args[i]);
const print = (x: unknown): void => void process.stdout.write(`${JSON.stringify(x)}\n`);

switch (section) {
  case 'shell':
    print((await import('./micro.js')).shellAnalysis(num(0)));
    break;
  case 'guard':
    print((await import('./micro.js')).guardClassification(num(0)));
    break;
  case 'supervised':
    print(await (await import('./supervised.js')).supervised(num(0)));
    break;
  case 'supervisor-server':
    await (await import('./supervised.js')).supervisorServer();
    break;
  case 'fleet':
    print(await (await import('./fleet.js')).fleetBench(num(0), num(1), process.argv[1]!, args[2] !== 'no-warm-up'));
    break;
  case 'fleet-keys':
    print(await (await import('./fleet-keys.js')).fleetKeys(num(0), num(1), args[2]!));
    process.exit(0);
    break;
  case 'fleet-keys-loaded':
    print(await (await import('./fleet-keys.js')).fleetKeysLoaded(num(0), num(1), args[2]!, num(3), args[4] === 'niced'));
    process.exit(0);
    break;
  case 'fleet-server':
    await (await import('./fleet.js')).fleetServer(num(0));
    break;
  case 'http':
    print(await (await import('./http.js')).httpHook(num(0), args[1]!));
    break;
  case 'review-snapshot':
    print((await import('./review.js')).reviewSnapshot(num(0), args[1]!));
    break;
  case 'scope':
    print((await import('./policy.js')).scopeThroughput(num(0), num(1)));
    break;
  case 'ledger-writer':
    await (await import('./policy.js')).ledgerWriter(args[0]!, args[1]!, num(2), num(3));
    break;
  case 'ledger-check':
    print((await import('./policy.js')).checkLedger(args[0]!, num(1), num(2)));
    break;
  case 'gen-store':
    print((await import('./store.js')).generateStore(args[0]!, num(1)));
    break;
  case 'tui-rates':
    print(await (await import('./tui.js')).tuiRates(args[1]!.split(',').map(Number), num(0)));
    process.exit(0);
    break;
  case 'tui-memory':
    print(await (await import('./tui.js')).tuiMemory(num(0), num(1), args[2] !== 'no-view'));
    process.exit(0);
    break;
  case 'sandbox':
    print(await (await import('./sandbox.js')).sandboxCost(num(0), num(1), args[2]!.split(',') as Array<'2.1.197' | '2.1.330'>));
    break;
  case 'tool-call':
    print(await (await import('./tool-call.js')).toolCallCost(num(0), num(1), args[2]!.split(',') as Array<'2.1.197' | '2.1.330'>));
    break;
  case 'run-driver': {
    const t = await import('./tool-call.js');
    const { pluginDir, command, args: rest } = t.runDriverArgs(args);
    process.exit(await t.runDriver(pluginDir, command, rest));
    break;
  }
  default:
    process.stderr.write(`unknown bench section ${section}\n`);
    process.exit(2);
}
