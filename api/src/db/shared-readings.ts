/** How long a shared reading serves its readers before it is made again. */
export const READINGS_SHARED_MS = 10_000;
/** Readings kept at once; past it the longest kept are dropped. */
const READINGS_KEPT = 100;

interface Slot<T> {
  /** The last reading, what it was read for (a day, a month), and when it began. */
  kept: { version: string; at: number; value: T } | null;
  running: Promise<T> | null;
  /** A reading to begin once the running one ends, shared by everyone who asks meanwhile. */
  queued: Promise<T> | null;
  /** Moves on at every `forget`, so that a reading begun before it is not kept. */
  generation: number;
}

/**
 * Readings too costly to make for every reader (a pass over thousands of walkers' days), each made
 * once and shared by its readers for `freshMs` (`READINGS_SHARED_MS`), at most one at a time per key. A reading is kept
 * for a `version` (the day or month it counts to) and read again when that moves on.
 */
export class SharedReadings<T> {
  private readonly slots = new Map<string, Slot<T>>();

  /** `freshMs` 0 reads for every reader that does not find one under way. */
  constructor(private readonly freshMs: number) {}

  /** The reading made in the last `freshMs` for `version`; else one under way, or a new one. */
  async get(key: string, version: string, now: number, read: () => Promise<T>): Promise<T> {
    const slot = this.slot(key);
    const kept = slot.kept;
    if (kept && kept.version === version && now >= kept.at && now - kept.at < this.freshMs) {
      return kept.value;
    }
    return slot.running ?? this.begin(slot, version, now, read);
  }

  /** A reading begun after this call: one under way may have begun before what the caller knows. */
  async fresh(key: string, version: string, now: number, read: () => Promise<T>): Promise<T> {
    const slot = this.slot(key);
    if (slot.queued) return slot.queued;
    if (!slot.running) return this.begin(slot, version, now, read);
    const queued = slot.running
      .catch(() => undefined)
      .then(() => {
        slot.queued = null;
        return this.begin(slot, version, now, read);
      });
    slot.queued = queued;
    return queued;
  }

  /** Drops what is kept for `key`: what it was read from changed. */
  forget(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    slot.kept = null;
    slot.generation++;
  }

  private slot(key: string): Slot<T> {
    let slot = this.slots.get(key);
    if (slot) return slot;
    if (this.slots.size >= READINGS_KEPT) {
      for (const [other, { running, queued }] of this.slots) {
        if (running || queued) continue;
        this.slots.delete(other);
        break;
      }
    }
    slot = { kept: null, running: null, queued: null, generation: 0 };
    this.slots.set(key, slot);
    return slot;
  }

  private begin(slot: Slot<T>, version: string, now: number, read: () => Promise<T>): Promise<T> {
    const generation = slot.generation;
    const running = read().finally(() => {
      if (slot.running === running) slot.running = null;
    });
    slot.running = running;
    return running.then((value) => {
      if (slot.generation === generation) slot.kept = { version, at: now, value };
      return value;
    });
  }
}
