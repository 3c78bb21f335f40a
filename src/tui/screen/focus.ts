// Who has the keyboard (Claude or roz) and whether roz's panel shares the
// screen, as human gates come and go. Pure state: the run screen feeds it the
// pending request ids and keys, and draws what it says.
//
// Rules (docs/supervisor.md, "Focus"):
// - A new request while the human is in Claude's pane takes the keyboard to
//   the approval; once the queue is empty, the keyboard goes back to Claude
//   if the human was there when the request came or went there while it
//   waited, and otherwise stays in the roz view they were using.
// - Leaving a waiting request for Claude's pane never hides it: roz's panel
//   stays on screen beside or under Claude until the queue is empty. It does
//   not take the keyboard back — a key meant for Claude must never answer a
//   request — the status line says how to reach it.
// - The bell rings once per request, the first time it waits while the human
//   is in Claude's pane.
import type { Focus } from './input-router.js';

export class FocusState {
  focus: Focus = 'child';
  /** The human's own choice of the shared layout (toggled with a key). */
  splitChosen = false;
  private pendingIds: string[] = [];
  private returnTo: Focus | null = null;
  private readonly rung = new Set<string>();
  private bellDue = false;

  /** Roz's panel shares the screen with Claude's pane. */
  get split(): boolean {
    return this.splitChosen || (this.pendingIds.length > 0 && this.focus === 'child');
  }

  /** Whether a bell is owed; reading it pays it. */
  takeBell(): boolean {
    const due = this.bellDue;
    this.bellDue = false;
    return due;
  }

  /** The supervisor's queue changed. */
  setPending(ids: readonly string[]): void {
    const before = new Set(this.pendingIds);
    const arrived = ids.filter((id) => !before.has(id));
    this.pendingIds = [...ids];
    if (arrived.length) {
      this.returnTo ??= this.focus;
      if (this.focus === 'child') {
        this.ring(arrived);
        this.focus = 'roz';
      }
    }
    for (const id of this.rung) if (!ids.includes(id)) this.rung.delete(id);
    if (ids.length === 0) {
      if (this.returnTo) this.focus = this.returnTo;
      this.returnTo = null;
    }
  }

  /** The hotkey: switch between Claude and roz. */
  toggle(): void {
    this.setFocus(this.focus === 'child' ? 'roz' : 'child');
  }

  /** q or Esc in roz's views. */
  leave(): void {
    this.setFocus('child');
  }

  toggleSplit(): void {
    this.splitChosen = !this.splitChosen;
  }

  private setFocus(f: Focus): void {
    this.focus = f;
    if (this.pendingIds.length === 0 || f !== 'child') return;
    // Having gone back to Claude while a request waited, the human returns there after it.
    this.returnTo = 'child';
    this.ring(this.pendingIds);
  }

  private ring(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.rung.has(id)) continue;
      this.rung.add(id);
      this.bellDue = true;
    }
  }
}
