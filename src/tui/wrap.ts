// Line wrapping for the roz views, done before Ink sees the text so a view
// knows how many rows it needs (to scroll, to fit a pane). Breaks at spaces;
// a word longer than the width is cut hard.

/**
 * Agent-controlled text (a command, a file's content, a reason) drawn as
 * text: a control character becomes a visible `\xNN`, so an escape sequence
 * in a command cannot repaint the approval prompt to show something else.
 * Newlines stay (the caller splits on them); a tab becomes two spaces.
 */
export function visible(text: string): string {
  return text.replace(/\t/g, '  ').replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function wrapText(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const para of visible(text).replace(/\r\n?/g, '\n').split('\n')) {
    let line = '';
    for (const word of para.split(/(?<= )/)) {
      if ((line + word).trimEnd().length <= w) {
        line += word;
        continue;
      }
      if (line.trim()) out.push(line.trimEnd());
      line = '';
      let rest = word;
      while (rest.trimEnd().length > w) {
        out.push(rest.slice(0, w));
        rest = rest.slice(w);
      }
      line = rest;
    }
    out.push(line.trimEnd());
  }
  return out;
}

/**
 * Pack phrases into lines of `width`, never breaking inside a phrase unless
 * the phrase alone is wider than a line.
 */
export function packPhrases(phrases: string[], width: number, sep = ' · '): string[] {
  const out: string[] = [];
  let line = '';
  for (const p of phrases) {
    const next = line ? `${line}${sep}${p}` : p;
    if (next.length <= width || !line) {
      line = next;
      continue;
    }
    out.push(line);
    line = p;
  }
  if (line) out.push(line);
  return out.flatMap((l) => (l.length > width ? wrapText(l, width) : [l]));
}
