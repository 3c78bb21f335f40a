// Text the agent chose (a command, an error line, a reviewer's summary, a
// file path) that roz writes into a file a human, a shell or a markdown reader
// reads: `.orchestration/CLAUDE.md`, the intent map. It must stay text. A
// lesson line reached a shell once (`CLAUDE.md -> ~/.bashrc`) with the agent's
// error text in backticks; the link is closed (store/no-follow.ts), and the
// text itself is made inert too: no control characters (terminal escapes,
// bidi overrides), no backtick or single quote (so it can sit in single
// quotes: a shell reads it as one literal word, `$(…)` included; markdown
// shows it as typed), no angle brackets (raw HTML in a markdown viewer).
// Pure.

// C0 and C1 controls, DEL, zero-width and bidi formatting characters.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `s` with nothing a shell, a terminal or a markdown renderer would act on: see above. */
export function inertText(s: string): string {
  return s.replace(INVISIBLE, ' ').replace(/[`']/g, '\u2019').replace(/</g, '\u2039').replace(/>/g, '\u203a');
}

/** `s` made inert and single-quoted: one literal word to a shell, plain text to markdown. */
export const quotedText = (s: string): string => `'${inertText(s)}'`;
