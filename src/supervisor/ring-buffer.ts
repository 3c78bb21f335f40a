// A fixed-capacity ring: the live trace keeps the newest N events so memory
// stays bounded however fast hooks arrive.
export class RingBuffer<T> {
  private readonly items: Array<T | undefined>;
  private start = 0;
  private count = 0;
  /** Items ever pushed; lets readers notice change without copying. */
  total = 0;

  constructor(readonly capacity: number) {
    if (capacity < 1) throw new Error('ring capacity must be at least 1');
    this.items = new Array<T | undefined>(capacity);
  }

  push(item: T): void {
    const end = (this.start + this.count) % this.capacity;
    this.items[end] = item;
    if (this.count < this.capacity) this.count += 1;
    else this.start = (this.start + 1) % this.capacity;
    this.total += 1;
  }

  get size(): number {
    return this.count;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = new Array<T>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.items[(this.start + i) % this.capacity] as T;
    return out;
  }

  /** The newest `n` items matching `keep`, oldest first, without copying the whole ring. */
  tail(n: number, keep: (item: T) => boolean = () => true): T[] {
    const out: T[] = [];
    for (let i = this.count - 1; i >= 0 && out.length < n; i--) {
      const item = this.items[(this.start + i) % this.capacity] as T;
      if (keep(item)) out.push(item);
    }
    return out.reverse();
  }

  last(): T | undefined {
    return this.count ? this.items[(this.start + this.count - 1) % this.capacity] : undefined;
  }
}
