// What an Edit or Write would change, as +/- lines for the approval prompt.
// Pure and bounded: a huge Write shows its first lines and a count.

export interface DiffLine {
  sign: '+' | '-' | ' ' | '@';
  text: string;
}

function lines(text: unknown): string[] {
  return typeof text === 'string' ? text.split('\n') : [];
}

export function diffPreview(toolName: string, input: Record<string, unknown>, maxLines = 40): DiffLine[] | null {
  const out: DiffLine[] = [];
  const edit = (oldS: unknown, newS: unknown): void => {
    for (const l of lines(oldS)) out.push({ sign: '-', text: l });
    for (const l of lines(newS)) out.push({ sign: '+', text: l });
  };
  if (toolName === 'Edit') {
    out.push({ sign: '@', text: `${String(input.file_path ?? '?')}${input.replace_all ? ' (all occurrences)' : ''}` });
    edit(input.old_string, input.new_string);
  } else if (toolName === 'MultiEdit' && Array.isArray(input.edits)) {
    out.push({ sign: '@', text: String(input.file_path ?? '?') });
    (input.edits as Array<Record<string, unknown>>).forEach((e, i) => {
      out.push({ sign: '@', text: `edit ${i + 1}` });
      edit(e.old_string, e.new_string);
    });
  } else if (toolName === 'Write') {
    out.push({ sign: '@', text: `${String(input.file_path ?? '?')} (whole file)` });
    for (const l of lines(input.content)) out.push({ sign: '+', text: l });
  } else {
    return null;
  }
  if (out.length <= maxLines) return out;
  const hidden = out.length - maxLines + 1;
  return [...out.slice(0, maxLines - 1), { sign: '@', text: `… ${hidden} more line${hidden === 1 ? '' : 's'}` }];
}
