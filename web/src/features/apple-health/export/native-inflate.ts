import type { AsyncFlateStreamHandler, UnzipDecoder, UnzipDecoderConstructor } from "fflate";

/** Whether this engine inflates raw deflate itself (`DecompressionStream("deflate-raw")`). */
export function canInflateNatively(): boolean {
  try {
    new DecompressionStream("deflate-raw");
    return true;
  } catch {
    return false;
  }
}

/**
 * Zip entries inflated by the engine's own DecompressionStream, for fflate's `Unzip` (which still
 * reads the zip's headers). fflate's own inflater grows and copies its output buffer on every chunk,
 * several times the XML's size in short-lived ArrayBuffers that the browser collects late; the
 * engine's writes each output once, and faster.
 *
 * The output comes asynchronously: after each push the reader awaits `settled()`, so no more than a
 * chunk is ever in flight, and at the end `finished()`, which also rethrows what the entry's
 * consumer (`ondata`) threw.
 */
export class NativeInflater {
  private writes: Promise<unknown>[] = [];
  private readonly pumps: Promise<void>[] = [];
  private readonly writers = new Set<WritableStreamDefaultWriter<Uint8Array>>();
  private failure: { error: unknown } | undefined;
  readonly decoder: UnzipDecoderConstructor;

  constructor() {
    const inflater = this;
    this.decoder = class NativeInflate implements UnzipDecoder {
      static readonly compression = 8;
      ondata: AsyncFlateStreamHandler = () => {};
      private readonly writer: WritableStreamDefaultWriter<Uint8Array>;

      constructor() {
        const stream = new DecompressionStream("deflate-raw");
        this.writer = stream.writable.getWriter() as WritableStreamDefaultWriter<Uint8Array>;
        inflater.writers.add(this.writer);
        inflater.pumps.push(this.pump(stream.readable.getReader()));
      }

      private async pump(reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>): Promise<void> {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            this.ondata(null, value, false);
          }
          this.ondata(null, new Uint8Array(0), true);
        } catch (error) {
          inflater.failure ??= { error };
          // Stops the stream, so that writes waiting on it fail instead of waiting for ever.
          await reader.cancel(error).catch(() => undefined);
        }
      }

      push(chunk: Uint8Array, final: boolean): void {
        inflater.writes.push(this.writer.write(chunk));
        if (final) {
          inflater.writes.push(this.writer.close());
          inflater.writers.delete(this.writer);
        }
      }
    };
  }

  /** Waits until what was pushed has been taken in; throws the first failure. */
  async settled(): Promise<void> {
    const writes = this.writes;
    this.writes = [];
    const results = await Promise.allSettled(writes);
    this.throwIfFailed(results);
  }

  /** Waits until every entry's output has been handed over; throws the first failure. */
  async finished(): Promise<void> {
    await this.settled();
    await Promise.all(this.pumps);
    this.throwIfFailed([]);
  }

  /** Stops entries left unfinished (a file cut short, a failure elsewhere). */
  abort(): void {
    for (const writer of this.writers) writer.abort().catch(() => undefined);
    this.writers.clear();
  }

  private throwIfFailed(results: PromiseSettledResult<unknown>[]): void {
    if (this.failure) throw this.failure.error;
    const rejected = results.find((result) => result.status === "rejected");
    if (rejected) throw (rejected as PromiseRejectedResult).reason;
  }
}
