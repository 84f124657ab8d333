/**
 * Runs at most `concurrency` tasks at once, with at most `maxWaiting` more waiting their turn.
 * `tryRun` never waits for room in the waiting list: when it is full the task is not taken.
 */
export class BoundedQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** Tasks running or waiting now. */
  get size(): number {
    return this.running + this.waiting.length;
  }

  /** The task's result, or undefined (the task not run) when the queue is full. */
  tryRun<T>(task: () => Promise<T>): Promise<T> | undefined {
    if (this.running >= this.concurrency && this.waiting.length >= this.maxWaiting) return undefined;
    return this.run(task);
  }

  private async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      // Hands the slot straight to the next waiting task, so nothing can slip in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
