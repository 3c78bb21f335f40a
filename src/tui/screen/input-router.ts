// Routes the user's keystrokes: to the child while Claude has focus, to the
// roz views otherwise. One byte Claude does not use switches between them.

/** Ctrl-] (0x1d), telnet's escape key: Claude Code binds nothing to it. */
export const HOTKEY = '\x1d';
export const HOTKEY_LABEL = 'Ctrl-]';

export type Focus = 'child' | 'roz';

export interface InputTargets {
  toChild: (data: string) => void;
  toRoz: (data: string) => void;
  /** The hotkey was pressed; the owner decides the new focus. */
  onHotkey: () => void;
  focus: () => Focus;
}

/** Split one read at each hotkey so keys typed around it still reach the right side. */
export function routeInput(data: string, t: InputTargets): void {
  let rest = data;
  while (rest.length) {
    const i = rest.indexOf(HOTKEY);
    const chunk = i < 0 ? rest : rest.slice(0, i);
    if (chunk) (t.focus() === 'child' ? t.toChild : t.toRoz)(chunk);
    if (i < 0) break;
    t.onHotkey();
    rest = rest.slice(i + 1);
  }
}
