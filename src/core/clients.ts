// The coding clients roz governs, as data: which executable starts each, which
// of its hook events roz configures (and the `roz hook` name that judges
// each), how its tools map onto roz's (the shell tool is Bash, a patch tool is
// the files it touches), what an `ask` becomes when no human can answer, and
// how its model names are spelt in the Agent Trace ledger. Learnt from the
// clients themselves (docs/clients.md). The launcher, the engine and the CLI
// read this table instead of testing client names here and there. Every hook
// process loads it, so what only a launch needs (executables, pins, the hook
// events to configure) is in core/client-commands.ts.
// Pure: no file system, no process.

export type ClientId = 'claude' | 'codex' | 'gemini';
export const CLIENT_IDS: readonly ClientId[] = ['claude', 'codex', 'gemini'];

/**
 * What roz makes of a client's tool: one of roz's own (Claude Code's names: Bash,
 * Write, Edit, Read; the input already has their fields), or a patch whose text
 * names the files it writes.
 */
export type ToolMapping = { as: 'Bash' | 'Write' | 'Edit' | 'Read' } | { as: 'patch'; field: readonly string[] };

export interface ClientDescriptor {
  id: ClientId;
  /** How people and the README name it. */
  label: string;
  /** The client's tool names (as its hooks report them) that roz maps onto its own. */
  tools: Readonly<Record<string, ToolMapping>>;
  /** Under `roz exec` nobody answers an `ask`: `deny` turns it into a refusal the model reads (the client would not ask). */
  askWithoutHuman: 'ask' | 'deny';
  /** Prefix for a bare model name in the ledger (models.dev spelling, `openai/gpt-5`). */
  modelVendor: string;
  /**
   * How its PreToolUse-like hook reads a refusal: `permissionDecision` (Claude Code, Codex:
   * hookSpecificOutput.permissionDecision) or `decision` (Gemini: top-level `decision: "deny"`, `reason`).
   */
  refusal: 'permissionDecision' | 'decision';
  /** Whether its PreToolUse reads `permissionDecision: "allow"` (Codex reports it as an unsupported, failed hook: roz says nothing instead). */
  explicitAllow: boolean;
  /** No read tool: what its shell's plain `cat`/`sed -n`/`head` show it counts as its read for the stale-file rule. */
  shellReads?: true;
  /** An argument roz's launch puts on the client's command line only with the sandbox it configured (its hooks look for it among their ancestors). */
  sandboxMark?: string;
}

const CLAUDE: ClientDescriptor = {
  id: 'claude',
  label: 'Claude Code',
  tools: {},
  askWithoutHuman: 'ask',
  modelVendor: 'anthropic',
  refusal: 'permissionDecision',
  explicitAllow: true,
};

const CODEX: ClientDescriptor = {
  id: 'codex',
  label: 'Codex CLI',
  // The shell tool already reaches hooks as `Bash` with tool_input.command. The patch tool was
  // not offered to the scripted model (docs/clients.md): its text is looked for in these fields.
  tools: { Bash: { as: 'Bash' }, apply_patch: { as: 'patch', field: ['command', 'input', 'patch'] } },
  // An `ask` is reported as a failed hook and not obeyed, by `codex exec` and by its TUI alike.
  askWithoutHuman: 'deny',
  modelVendor: 'openai',
  refusal: 'permissionDecision',
  explicitAllow: false,
  // core/codex-launch.ts: `-c default_permissions="roz"` selects roz's profile.
  sandboxMark: 'default_permissions="roz"',
  // It has no read tool (docs/clients.md, stale files): an apply_patch is checked against what its shell showed it.
  shellReads: true,
};

const GEMINI: ClientDescriptor = {
  id: 'gemini',
  label: 'Gemini CLI',
  // Its own tool names; their arguments already use Claude Code's field names (command, file_path, content, old_string).
  tools: { run_shell_command: { as: 'Bash' }, write_file: { as: 'Write' }, replace: { as: 'Edit' }, read_file: { as: 'Read' } },
  askWithoutHuman: 'deny',
  modelVendor: 'google',
  refusal: 'decision',
  explicitAllow: true,
};

const BY_ID: Readonly<Record<ClientId, ClientDescriptor>> = { claude: CLAUDE, codex: CODEX, gemini: GEMINI };

export function clientById(id: ClientId): ClientDescriptor {
  return BY_ID[id];
}

/** A client id as typed (`--agent codex`), or null. */
export function parseClientId(text: string | undefined): ClientId | null {
  return CLIENT_IDS.includes(text as ClientId) ? (text as ClientId) : null;
}

/** The client whose hooks a hook process serves: ROZ_CLIENT as roz's launcher set it, else Claude Code. */
export function hookClient(env: Record<string, string | undefined>): ClientDescriptor {
  return BY_ID[parseClientId(env.ROZ_CLIENT) ?? 'claude'];
}

/** A model name as the ledger records it: `vendor/model` (a name that has a vendor already is kept). */
export function clientModelId(client: ClientDescriptor, model: string): string {
  return model.includes('/') ? model : `${client.modelVendor}/${model}`;
}

/** Every client's patch tools: tool name -> the input fields its patch text may be in. */
export function patchTools(): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const c of Object.values(BY_ID)) for (const [name, m] of Object.entries(c.tools)) if (m.as === 'patch') out.set(name, m.field);
  return out;
}

/**
 * A hook payload in roz's terms: the client's tool name replaced by roz's (the
 * original kept as `client_tool_name`); a patch tool keeps its name (its files
 * come from its text). Changes `input` in place; true when it renamed.
 */
export function asRozTool(input: { tool_name?: unknown; [k: string]: unknown }, client: ClientDescriptor): boolean {
  if (typeof input.tool_name !== 'string') return false;
  const m = Object.hasOwn(client.tools, input.tool_name) ? client.tools[input.tool_name] : undefined;
  if (!m || m.as === 'patch' || m.as === input.tool_name) return false;
  input.client_tool_name = input.tool_name;
  input.tool_name = m.as;
  return true;
}
