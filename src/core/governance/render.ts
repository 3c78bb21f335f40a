// Text the agent reads: the <intent_context> block, the SessionStart summary
// and the hint on how to select an intent.
import type { Intent } from './intents.js';

export const SELECT_HOW = 'select one with the MCP tool select_active_intent (argument intent_id), or run `roz intent select ID` with Bash';

export function selectableIntents(intents: readonly Intent[]): Intent[] {
  return intents.filter((i) => i.status === 'IN_PROGRESS');
}

export function intentLine(i: Intent): string {
  const scope = i.owned_scope.length ? i.owned_scope.join(', ') : '(no owned_scope: cannot write anything)';
  return `${i.id} "${i.name}" — scope: ${scope}`;
}

export function selectHint(intents: readonly Intent[]): string {
  const open = selectableIntents(intents);
  if (open.length === 0) {
    return 'No intent is IN_PROGRESS in .orchestration/active_intents.yaml, so nothing can be changed: ask the human to start one.';
  }
  return `Before changing files, ${SELECT_HOW}. IN_PROGRESS intents:\n${open.map((i) => `  - ${intentLine(i)}`).join('\n')}`;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const list = (tag: string, item: string, values: readonly string[]): string =>
  values.length ? `  <${tag}>\n${values.map((v) => `    <${item}>${esc(v)}</${item}>`).join('\n')}\n  </${tag}>` : `  <${tag}/>`;

/** What the agent works under once it has selected an intent. */
export function intentContext(intent: Intent, lessons: readonly string[]): string {
  return [
    `<intent_context id="${esc(intent.id)}" status="${intent.status}">`,
    `  <name>${esc(intent.name)}</name>`,
    list('owned_scope', 'glob', intent.owned_scope),
    list('constraints', 'constraint', intent.constraints),
    list('acceptance_criteria', 'criterion', intent.acceptance_criteria),
    list('lessons', 'lesson', lessons),
    '  <rules>Only files matching owned_scope may be changed. Re-read a file before editing it if it may have changed. ' +
      "Destructive commands need the human's approval.</rules>",
    '</intent_context>',
  ].join('\n');
}

export function sessionSummary(intents: readonly Intent[], selected: string | null, lessons: readonly string[]): string {
  const open = selectableIntents(intents);
  const lines = ['roz intent governance is on for this project: every file change must belong to a selected intent.'];
  if (selected) lines.push(`Selected intent: ${selected}.`);
  if (open.length) {
    lines.push(`IN_PROGRESS intents (${SELECT_HOW}):`, ...open.slice(0, 20).map((i) => `  - ${intentLine(i)}`));
    if (open.length > 20) lines.push(`  … and ${open.length - 20} more (roz intent list)`);
  } else lines.push('No intent is IN_PROGRESS: ask the human before changing files.');
  if (lessons.length) lines.push('Lessons learned in this project (.orchestration/CLAUDE.md):', ...lessons.map((l) => `  ${l}`));
  return lines.join('\n');
}
