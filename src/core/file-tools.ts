// The client's tools that write a file they name (Claude Code's; other
// clients' file tools are mapped onto these names). Bash writes too, through
// the shell write analysis (core/governance/mutations.ts).
export const FILE_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
