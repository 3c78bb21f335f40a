// Cheap top-level symbol extraction for .ts/.js/.py (line regexes, no parser):
// enough to name what a change touched and to classify it.
import { extname } from 'node:path';
import { splitLines, type LineRange } from './ranges.js';

export interface TopSymbol {
  name: string;
  start_line: number;
  /** Up to the line before the next top-level symbol. */
  end_line: number;
}

const JS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const JS_DECL =
  /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|interface|type|enum|const|let|var|namespace)\s+([A-Za-z_$][\w$]*)/;
const PY_DECL = /^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)|^([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)/;

export function symbolLanguage(path: string): 'js' | 'py' | null {
  const ext = extname(path).toLowerCase();
  return JS.has(ext) ? 'js' : ext === '.py' ? 'py' : null;
}

export function topLevelSymbols(path: string, content: string): TopSymbol[] | null {
  const lang = symbolLanguage(path);
  if (!lang) return null;
  const re = lang === 'js' ? JS_DECL : PY_DECL;
  const lines = splitLines(content);
  const found: TopSymbol[] = [];
  lines.forEach((line, i) => {
    const m = re.exec(line);
    const name = m?.[1] ?? m?.[2];
    if (name) found.push({ name, start_line: i + 1, end_line: lines.length });
  });
  for (let i = 0; i < found.length - 1; i++) found[i]!.end_line = found[i + 1]!.start_line - 1;
  return found;
}

/** Names of the top-level symbols whose lines intersect the ranges. */
export function symbolsTouched(path: string, content: string, ranges: readonly LineRange[]): string[] | null {
  const syms = topLevelSymbols(path, content);
  if (!syms) return null;
  const hit = syms.filter((s) => ranges.some((r) => r.start_line <= s.end_line && r.end_line >= s.start_line));
  return [...new Set(hit.map((s) => s.name))];
}
