import type { CDPSession } from "playwright-core";

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  /** ArrayBuffers' bytes (the file's chunks, the inflater's window), outside the JS heap. */
  backingStorageSize?: number;
}

/**
 * Samples the JS heap of the page's dedicated worker whose script URL contains `scriptPart`, through
 * the page's DevTools session: auto-attach reports the worker as it starts, and Runtime.getHeapUsage
 * is sent to it as a message (the session is not flattened, so playwright's CDPSession can reach
 * it). V8 answers between tasks and at interrupts, so a busy worker is still sampled.
 */
export class WorkerHeapSampler {
  private sessionId: string | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (usage: HeapUsage | null) => void>();
  private running = false;
  private loop: Promise<void> | undefined;
  /** The largest used heap seen, and the largest heap V8 reserved (it grows to hold every peak). */
  peakUsed = 0;
  peakTotal = 0;
  peakBacking = 0;
  /** The largest heap and ArrayBuffers together, in one sample. */
  peakMemory = 0;
  samples = 0;

  constructor(
    private readonly cdp: CDPSession,
    private readonly scriptPart: string,
  ) {
    cdp.on("Target.attachedToTarget", ({ sessionId, targetInfo }) => {
      if (targetInfo.type === "worker" && targetInfo.url.includes(this.scriptPart))
        this.sessionId = sessionId;
    });
    cdp.on("Target.detachedFromTarget", ({ sessionId }) => {
      if (sessionId !== this.sessionId) return;
      this.sessionId = undefined;
      // A worker that ended answers nothing more.
      for (const resolve of this.waiting.values()) resolve(null);
      this.waiting.clear();
    });
    cdp.on("Target.receivedMessageFromTarget", ({ message }) => {
      const answer = JSON.parse(message) as { id?: number; result?: HeapUsage };
      if (answer.id === undefined) return;
      this.waiting.get(answer.id)?.(answer.result ?? null);
      this.waiting.delete(answer.id);
    });
  }

  async attach(): Promise<void> {
    await this.cdp.send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
  }

  /** Samples every `everyMs` until stop(). */
  start(everyMs = 20): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const usage = await this.sample();
        if (usage !== null) {
          this.samples++;
          this.peakUsed = Math.max(this.peakUsed, usage.usedSize);
          this.peakTotal = Math.max(this.peakTotal, usage.totalSize);
          this.peakBacking = Math.max(this.peakBacking, usage.backingStorageSize ?? 0);
          this.peakMemory = Math.max(this.peakMemory, usage.totalSize + (usage.backingStorageSize ?? 0));
        }
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private sample(): Promise<HeapUsage | null> {
    const sessionId = this.sessionId;
    if (sessionId === undefined) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      const message = JSON.stringify({ id, method: "Runtime.getHeapUsage" });
      // The worker may end (the import done) between the attach and this message.
      this.cdp.send("Target.sendMessageToTarget", { sessionId, message }).catch(() => {
        this.waiting.delete(id);
        resolve(null);
      });
    });
  }
}
