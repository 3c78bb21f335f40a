// The newest output of one agent's pty, bounded: what a screen that attaches
// later replays into its own virtual terminal to show the agent as it is.
export class PtyTail {
  private chunks: string[] = [];
  private size = 0;

  constructor(private readonly capacity: number) {}

  push(data: string): void {
    this.chunks.push(data);
    this.size += data.length;
    while (this.size > this.capacity && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
    if (this.size > this.capacity) {
      // One chunk larger than the whole tail: keep its end.
      this.chunks = [this.chunks[0]!.slice(this.size - this.capacity)];
      this.size = this.capacity;
    }
  }

  text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }
}
