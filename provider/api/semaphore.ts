/**
 * The one counting semaphore of the package (the client's in-flight cap, the purge workers). A finished holder hands
 * its slot straight to the next waiter, so a caller arriving in between cannot run beyond the limit.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** `limit` slots; a limit below 1 or not an integer is refused (nothing could ever run). */
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`Semaphore limit must be an integer of at least 1, got ${limit}`);
  }

  /** Slots held right now. */
  get inUse(): number {
    return this.active;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Waits for a slot, in arrival order; the caller must `release()` it exactly once. */
  acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    // The slot count stays with the releasing holder and passes to this waiter (see release).
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Gives a slot back: to the first waiter when there is one (the count does not drop), else to the pool. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else if (this.active > 0) this.active--;
    else throw new Error("Semaphore released more often than acquired");
  }

  /** Runs `fn` inside a slot and frees the slot however `fn` ends. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }
}
