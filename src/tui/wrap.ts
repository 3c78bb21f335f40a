// Line wrapping for the roz views, done before Ink sees the text so a view
// knows how many rows it needs (to scroll, to fit a pane). Breaks at spaces;
// a word longer than the width is cut hard.

export function wrapText(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const para of text.split('\n')) {
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
