/** The most items one transaction takes; more wait for the next. */
const MAX_ITEMS = 128;

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items that arrive while a write runs (or in the same turn of the event loop) are
 * written together in the next one, so that a burst of step syncs pays for one commit (and on
 * PostgreSQL one round trip) instead of one each. Each caller's promise settles only once its own
 * write has committed (or failed), so an answer still means the write is stored. When a write of
 * several items fails, each of them is tried again alone: one bad item fails only its own caller.
 *
 * `work` writes the items atomically (a transaction or one statement of its own), gets them in
 * arrival order and must return one result per item, in the same order.
 */
export class GroupCommit<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private running = 0;

  private readonly concurrency: number;

  /**
   * `concurrency`: how many groups may run at once (1 on SQLite, which has one writer). With more,
   * `work` must take its locks in one global order, or two groups could deadlock.
   */
  constructor(
    private readonly work: (items: Item[]) => Promise<Result[]>,
    options: { concurrency?: number } = {},
  ) {
    this.concurrency = options.concurrency ?? 1;
  }

  run(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      // The first item of a quiet spell waits for the rest of this turn's requests to join it.
      if (this.waiting.length === 1 && this.running < this.concurrency) setImmediate(() => this.drain());
    });
  }

  private drain(): void {
    while (this.waiting.length > 0 && this.running < this.concurrency) {
      const group = this.waiting.splice(0, MAX_ITEMS);
      this.running++;
      void this.commit(group).finally(() => {
        this.running--;
        this.drain();
      });
    }
  }

  private async commit(group: Waiting<Item, Result>[]): Promise<void> {
    if (group.length > 1) {
      try {
        const results = await this.write(group.map((waiting) => waiting.item));
        for (const [index, waiting] of group.entries()) waiting.resolve(results[index] as Result);
        return;
      } catch {
        // Any one of them may be at fault: each is tried again alone, below.
      }
    }
    for (const waiting of group) {
      try {
        const [result] = await this.write([waiting.item]);
        waiting.resolve(result as Result);
      } catch (error) {
        waiting.reject(error);
      }
    }
  }

  private async write(items: Item[]): Promise<Result[]> {
    const results = await this.work(items);
    if (results.length !== items.length) {
      throw new Error(`group commit: ${results.length} results for ${items.length} items`);
    }
    return results;
  }
}
