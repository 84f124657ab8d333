/**
 * Reads the Health app's "Export All Health Data" file as a stream: the zip is inflated chunk by
 * chunk (fflate) and export.xml parsed as it arrives (saxes), so neither the file nor the XML is
 * ever held whole, and only the accepted days' hourly step sums are kept (StepBuckets). Pure code:
 * it runs in the import's Web Worker and in Node's tests alike.
 */
import {
  type DayString,
  RECORD_STEPS_PER_DAY_MAX,
  RECORD_STEPS_PER_MINUTE_MAX,
} from "@charity-steps/shared-types";
import { Unzip, UnzipInflate, UnzipPassThrough } from "fflate";
import { SaxesParser, type SaxesTagPlain } from "saxes";
import { canInflateNatively, NativeInflater } from "./native-inflate";
import { type ImportedDay, StepBuckets } from "./step-buckets";

export const STEP_COUNT_TYPE = "HKQuantityTypeIdentifierStepCount";
const USER_ENTERED_KEY = "HKWasUserEntered";

export type HealthExportErrorCode = "not-health-export" | "no-export-xml" | "not-health-data" | "incomplete";

const MESSAGES: Record<HealthExportErrorCode, string> = {
  "not-health-export":
    "This file is not an Apple Health export. In the Health app, tap your picture, then Export All Health Data, and choose the export.zip it makes.",
  "no-export-xml":
    "This zip has no export.xml inside, so it is not an Apple Health export. Choose the export.zip that the Health app made.",
  "not-health-data":
    "This XML file is not Apple Health data. Choose the export.zip (or the export.xml inside it) that the Health app made.",
  incomplete:
    "This export is incomplete or damaged: the file ends too early. Nothing was imported. Export again from the Health app and choose the new file.",
};

/** A file the import cannot read; `message` is written for the walker. */
export class HealthExportError extends Error {
  readonly code: HealthExportErrorCode;
  constructor(code: HealthExportErrorCode, detail?: string) {
    super(MESSAGES[code]);
    this.name = "HealthExportError";
    this.code = code;
    if (detail !== undefined) this.cause = detail;
  }
}

export interface HealthExportSummary {
  /** The accepted days with measured steps, oldest first. */
  days: ImportedDay[];
  /** Step records counted (before the window and the overlap rule). */
  stepRecords: number;
  /** Step records skipped because the walker typed them into the Health app. */
  userEnteredRecords: number;
  /**
   * Step records of the accepted days left out because no phone or watch could have measured them:
   * they end before they start, or hold more steps than anyone takes in their time.
   */
  impossibleRecords: number;
  /** Bytes of export.xml read. */
  xmlBytes: number;
}

/**
 * `Date.parse` reads export.xml's `2026-03-29 01:30:00 +0100` differently in each engine, so it is
 * read here: the local time and its UTC offset give the exact instant. NaN when not in that form.
 */
export function parseHealthDate(text: string): number {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)? ?(?:([+-])(\d{2}):?(\d{2})|Z)?$/.exec(
      text,
    );
  if (match === null) return Number.NaN;
  const [, y, mo, d, h, mi, s, sign, oh, om] = match;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (sign === undefined) return local;
  const offset = (Number(oh) * 60 + Number(om)) * 60_000;
  return sign === "-" ? local + offset : local - offset;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Whether a step record could have been measured: its times run forwards, and it holds no more
 * steps than anyone takes in them. A damaged export, or an app that writes nonsense, must not fill
 * the walker's days up to the daily cap.
 */
export function couldBeMeasured(start: number, end: number, steps: number): boolean {
  if (!(end >= start) || !(steps >= 0)) return false;
  const ms = end - start;
  return (
    steps <= RECORD_STEPS_PER_MINUTE_MAX * Math.max(1, ms / MINUTE_MS) &&
    steps <= RECORD_STEPS_PER_DAY_MAX * Math.max(1, ms / DAY_MS)
  );
}

interface OpenRecord {
  source: string;
  start: number;
  end: number;
  steps: number;
  userEntered: boolean;
}

/**
 * Takes export.xml as text chunks and keeps the measured step records of the accepted days.
 * Everything but `HKQuantityTypeIdentifierStepCount` records is passed over; records the walker typed
 * in (`HKWasUserEntered` = 1) are skipped, as only measured steps count.
 */
export class HealthXmlReader {
  private readonly parser = new SaxesParser({ position: false });
  private readonly buckets: StepBuckets;
  private sawRoot = false;
  private open: OpenRecord | null = null;
  stepRecords = 0;
  userEnteredRecords = 0;
  impossibleRecords = 0;

  constructor(today: DayString) {
    this.buckets = new StepBuckets(today);
    this.parser.on("opentag", (tag) => this.openTag(tag as SaxesTagPlain));
    this.parser.on("closetag", (tag) => {
      if (tag.name === "Record") this.closeRecord();
    });
    this.parser.on("error", (error) => {
      throw new HealthExportError(this.sawRoot ? "incomplete" : "not-health-data", error.message);
    });
  }

  private openTag(tag: SaxesTagPlain): void {
    if (!this.sawRoot) {
      if (tag.name !== "HealthData") throw new HealthExportError("not-health-data", `root <${tag.name}>`);
      this.sawRoot = true;
      return;
    }
    if (tag.name === "Record") {
      const { attributes } = tag;
      if (attributes.type !== STEP_COUNT_TYPE) return;
      this.open = {
        source: attributes.sourceName ?? "",
        start: parseHealthDate(attributes.startDate ?? ""),
        end: parseHealthDate(attributes.endDate ?? ""),
        steps: Number(attributes.value),
        userEntered: false,
      };
    } else if (tag.name === "MetadataEntry" && this.open !== null) {
      const { key, value } = tag.attributes;
      if (key === USER_ENTERED_KEY && (value === "1" || value === "true")) this.open.userEntered = true;
    }
  }

  private closeRecord(): void {
    const record = this.open;
    if (record === null) return;
    this.open = null;
    this.stepRecords++;
    if (record.userEntered) {
      this.userEnteredRecords++;
      return;
    }
    const { source, start, end, steps } = record;
    // A record with no time that can be read has no day to count on; one with an end that cannot
    // be read is judged at its start.
    if (!Number.isFinite(start) || !this.buckets.covers(start, Number.isFinite(end) ? end : start)) return;
    if (!couldBeMeasured(start, end, steps)) {
      this.impossibleRecords++;
      return;
    }
    this.buckets.add(source, start, end, steps);
  }

  write(text: string): void {
    this.parser.write(text);
  }

  /** The XML has ended: throws if it ended inside the document (or never began one). */
  close(): ImportedDay[] {
    if (!this.sawRoot) {
      throw new HealthExportError("not-health-data", "no root element");
    }
    this.parser.close();
    return this.buckets.totals();
  }
}

const EXPORT_XML = /(^|\/)export\.xml$/;
const END_OF_CENTRAL_DIRECTORY = [0x50, 0x4b, 0x05, 0x06];
/** The end record is 22 bytes plus a comment of at most 65,535. */
const ZIP_TAIL_BYTES = 22 + 65_535;

export interface ReadOptions {
  /** London today: the accepted days are it and the 30 before it. */
  today: DayString;
  /** Called after each chunk of the file with the bytes read so far. */
  onProgress?: (bytesRead: number) => void;
  signal?: AbortSignal;
  /** Who inflates export.xml: the engine where it can (the default), or fflate. */
  inflate?: "native" | "fflate";
}

/**
 * Reads a Health export, zipped (export.zip) or not (export.xml), from its bytes in order. Throws
 * HealthExportError for a file that is not one or that ends early, and the signal's reason when
 * aborted; either way nothing is returned, so nothing is imported.
 */
export async function readHealthExport(
  chunks: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  { today, onProgress, signal, inflate = canInflateNatively() ? "native" : "fflate" }: ReadOptions,
): Promise<HealthExportSummary> {
  const inflater = inflate === "native" ? new NativeInflater() : undefined;
  try {
    return await read(chunks, today, onProgress, signal, inflater);
  } catch (error) {
    if (error instanceof HealthExportError || signal?.aborted) throw error;
    // The inflater's own complaints (data cut short, not deflate): the zip is damaged.
    throw new HealthExportError("incomplete", error instanceof Error ? error.message : String(error));
  } finally {
    inflater?.abort();
  }
}

async function read(
  chunks: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  today: DayString,
  onProgress: ReadOptions["onProgress"],
  signal: AbortSignal | undefined,
  inflater: NativeInflater | undefined,
): Promise<HealthExportSummary> {
  const xml = new HealthXmlReader(today);
  const decoder = new TextDecoder();
  let xmlBytes = 0;
  const writeXml = (bytes: Uint8Array) => {
    xmlBytes += bytes.length;
    xml.write(decoder.decode(bytes, { stream: true }));
  };

  let kind: "zip" | "xml" | undefined;
  let head: Uint8Array = new Uint8Array(0);
  let bytesRead = 0;
  // Zip state: export.xml's entry, whether it ended, and the file's last bytes (to find the end record).
  let unzip: Unzip | undefined;
  let foundXml = false;
  let xmlEnded = false;
  const tail = new ZipTail();

  const startZip = () => {
    unzip = new Unzip((file) => {
      if (foundXml || !EXPORT_XML.test(file.name)) return;
      foundXml = true;
      file.ondata = (error, data, final) => {
        // fflate hands back what the XML reader threw while it was inflating, as well as its own errors.
        if (error)
          throw error instanceof HealthExportError
            ? error
            : new HealthExportError("incomplete", error.message);
        writeXml(data);
        if (final) xmlEnded = true;
      };
      file.start();
    });
    unzip.register(inflater?.decoder ?? UnzipInflate);
    unzip.register(UnzipPassThrough);
  };
  const pushZip = (bytes: Uint8Array, final: boolean) => {
    try {
      unzip?.push(bytes, final);
    } catch (error) {
      if (error instanceof HealthExportError) throw error;
      throw new HealthExportError("incomplete", error instanceof Error ? error.message : String(error));
    }
    tail.add(bytes);
  };

  const consume = (bytes: Uint8Array) => {
    if (kind === undefined) {
      head = concat(head, bytes);
      if (head.length < 4) return;
      kind = sniff(head);
      bytes = head;
      head = new Uint8Array(0);
      if (kind === "zip") startZip();
    }
    if (kind === "zip") pushZip(bytes, false);
    else writeXml(bytes);
  };

  for await (const chunk of iterate(chunks)) {
    signal?.throwIfAborted();
    bytesRead += chunk.length;
    consume(chunk);
    await inflater?.settled();
    onProgress?.(bytesRead);
  }
  signal?.throwIfAborted();

  if (kind === undefined) {
    // Under 4 bytes: too short to be either.
    kind = sniff(head);
    if (kind === "xml") writeXml(head);
  }
  if (kind === "zip") {
    pushZip(new Uint8Array(0), true);
    if (foundXml) await inflater?.finished();
    if (!foundXml) {
      // A zip that ends before any export.xml may just be cut short: only its end record says whole.
      throw new HealthExportError(tail.hasEndRecord() ? "no-export-xml" : "incomplete");
    }
    if (!xmlEnded || !tail.hasEndRecord()) throw new HealthExportError("incomplete");
  }
  xml.write(decoder.decode());
  const days = xml.close();
  return {
    days,
    stepRecords: xml.stepRecords,
    userEnteredRecords: xml.userEnteredRecords,
    impossibleRecords: xml.impossibleRecords,
    xmlBytes,
  };
}

/** Safari's ReadableStream is not async-iterable, so a stream is read through its reader. */
async function* iterate(
  chunks: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
): AsyncIterable<Uint8Array> {
  if (!("getReader" in chunks)) {
    yield* chunks;
    return;
  }
  const reader = chunks.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function sniff(head: Uint8Array): "zip" | "xml" {
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05)) return "zip";
  let at = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (
    at < head.length &&
    (head[at] === 0x20 || head[at] === 0x0a || head[at] === 0x0d || head[at] === 0x09)
  ) {
    at++;
  }
  if (head[at] === 0x3c) return "xml";
  throw new HealthExportError("not-health-export");
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/**
 * The file's last bytes, enough to hold the zip's end record: the chunks themselves are kept (no
 * copies), only as many as cover those bytes.
 */
class ZipTail {
  private readonly chunks: Uint8Array[] = [];
  private bytes = 0;

  add(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.chunks.length > 1 && this.bytes - (this.chunks[0]?.length ?? 0) >= ZIP_TAIL_BYTES) {
      this.bytes -= this.chunks.shift()?.length ?? 0;
    }
  }

  hasEndRecord(): boolean {
    const tail = this.chunks.reduce(concat, new Uint8Array(0));
    const [p, k, five, six] = END_OF_CENTRAL_DIRECTORY as [number, number, number, number];
    for (let at = tail.length - 22; at >= 0; at--) {
      if (tail[at] === p && tail[at + 1] === k && tail[at + 2] === five && tail[at + 3] === six) return true;
    }
    return false;
  }
}
