// Splits an effective argv into flags, option values and operands, the way most CLIs read them.

/** Options and operands of one command; letters of clustered short flags (`-rf`) are split. */
export interface ParsedArgs {
  /** Short option letters seen (`-rf` → r, f). */
  short: Set<string>;
  /** Long option names seen, without value (`--force-with-lease=x` → `--force-with-lease`). */
  long: Set<string>;
  /** Values of options known to take one, keyed by letter (`c`) or long name (`--command`). */
  values: Map<string, string[]>;
  /** Non-option words, in order (everything after `--` included). */
  operands: string[];
  /** Index in argv of each operand, to look up dynamic/glob flags. */
  operandIndex: number[];
}

/** Which options of a command take a value, so that value is not mistaken for an operand. */
export interface OptionShape {
  shortWithValue?: string;
  longWithValue?: readonly string[];
}

export function parseArgs(argv: readonly string[], from: number, shape: OptionShape = {}): ParsedArgs {
  const out: ParsedArgs = { short: new Set(), long: new Set(), values: new Map(), operands: [], operandIndex: [] };
  const shortWithValue = shape.shortWithValue ?? '';
  const longWithValue = shape.longWithValue ?? [];
  const addValue = (key: string, value: string | undefined): void => {
    if (value === undefined) return;
    const list = out.values.get(key);
    if (list === undefined) out.values.set(key, [value]);
    else list.push(value);
  };
  for (let i = from; i < argv.length; i++) {
    const v = argv[i]!;
    if (v === '--') {
      for (let j = i + 1; j < argv.length; j++) {
        out.operands.push(argv[j]!);
        out.operandIndex.push(j);
      }
      break;
    }
    if (v.startsWith('--') && v.length > 2) {
      const eq = v.indexOf('=');
      const name = eq === -1 ? v : v.slice(0, eq);
      out.long.add(name);
      if (eq !== -1) addValue(name, v.slice(eq + 1));
      else if (longWithValue.includes(name)) addValue(name, argv[++i]);
      continue;
    }
    if (v.startsWith('-') && v.length > 1) {
      for (let c = 1; c < v.length; c++) {
        const letter = v[c]!;
        out.short.add(letter);
        if (shortWithValue.includes(letter)) {
          addValue(letter, c < v.length - 1 ? v.slice(c + 1) : argv[++i]);
          break;
        }
      }
      continue;
    }
    out.operands.push(v);
    out.operandIndex.push(i);
  }
  return out;
}

/** Index in argv of git's subcommand, skipping global options (`git -C dir -c k=v push`). */
export function gitSubcommandIndex(argv: readonly string[]): number {
  let i = 1;
  while (i < argv.length) {
    const v = argv[i]!;
    if (v === '-C' || v === '-c' || v === '--git-dir' || v === '--work-tree' || v === '--namespace' || v === '--exec-path' || v === '--config-env') i += 2;
    else if (v.startsWith('-')) i++;
    else return i;
  }
  return -1;
}
