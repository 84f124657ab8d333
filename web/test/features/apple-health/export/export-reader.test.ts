// @vitest-environment node
import { strToU8, Zip, ZipDeflate, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  type HealthExportErrorCode,
  parseHealthDate,
  readHealthExport,
} from "../../../../src/features/apple-health/export/health-export-reader";

const STEPS = "HKQuantityTypeIdentifierStepCount";
const WATCH = "Wendy’s Apple Watch";
const PHONE = "Wendy’s iPhone";

interface RecordSpec {
  start: string;
  end?: string;
  value: number;
  source?: string;
  type?: string;
  userEntered?: boolean;
}

function record({
  start,
  end = start,
  value,
  source = PHONE,
  type = STEPS,
  userEntered = false,
}: RecordSpec): string {
  const head = `<Record type="${type}" sourceName="${source}" sourceVersion="17.4" unit="count" creationDate="${end}" startDate="${start}" endDate="${end}" value="${value}"`;
  if (!userEntered) return ` ${head}/>\n`;
  return ` ${head}>\n  <MetadataEntry key="HKWasUserEntered" value="1"/>\n </Record>\n`;
}

function exportXml(records: RecordSpec[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
<!ATTLIST HealthData locale CDATA #REQUIRED>
]>
<HealthData locale="en_GB">
 <ExportDate value="2026-04-15 20:00:00 +0100"/>
 <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
${records.map(record).join("")}</HealthData>
`;
}

function exportZip(records: RecordSpec[], xml = exportXml(records)): Uint8Array {
  return zipSync({
    "apple_health_export/export.xml": strToU8(xml),
    "apple_health_export/export_cda.xml": strToU8("<ClinicalDocument/>"),
  });
}

/** The bytes in chunks of `size`, as a file stream hands them over. */
async function* chunked(bytes: Uint8Array, size = 1 << 16): AsyncIterable<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

type Inflater = "native" | "fflate";

/** The days read from `bytes`, the same whichever inflater reads the zip (the engine's or fflate's). */
async function daysOf(bytes: Uint8Array, today = "2026-04-15", size?: number) {
  const read = async (inflate: Inflater) => {
    const summary = await readHealthExport(chunked(bytes, size), { today, inflate });
    return Object.fromEntries(summary.days.map(({ day, steps }) => [day, steps]));
  };
  const [native, fflate] = await Promise.all([read("native"), read("fflate")]);
  expect(fflate).toEqual(native);
  return native;
}

/** Why `bytes` are refused, the same whichever inflater reads the zip. */
async function failure(bytes: Uint8Array, today = "2026-04-15"): Promise<HealthExportErrorCode> {
  const refusal = async (inflate: Inflater): Promise<HealthExportErrorCode> => {
    try {
      await readHealthExport(chunked(bytes), { today, inflate });
    } catch (error) {
      return (error as { code: HealthExportErrorCode }).code;
    }
    throw new Error(`the export was read (${inflate})`);
  };
  const [native, fflate] = await Promise.all([refusal("native"), refusal("fflate")]);
  expect(fflate).toBe(native);
  return native;
}

describe("readHealthExport: which steps count", () => {
  it("takes the larger source in an hour, not the sum, when a watch and an iPhone count the same walk", async () => {
    const days = await daysOf(
      exportZip([
        { start: "2026-04-14 10:05:00 +0100", end: "2026-04-14 10:20:00 +0100", value: 400, source: PHONE },
        { start: "2026-04-14 10:25:00 +0100", end: "2026-04-14 10:40:00 +0100", value: 300, source: PHONE },
        { start: "2026-04-14 10:02:00 +0100", end: "2026-04-14 10:30:00 +0100", value: 500, source: WATCH },
        { start: "2026-04-14 10:31:00 +0100", end: "2026-04-14 10:50:00 +0100", value: 400, source: WATCH },
        // The next hour only the phone counted.
        { start: "2026-04-14 11:10:00 +0100", end: "2026-04-14 11:20:00 +0100", value: 250, source: PHONE },
      ]),
    );
    expect(days).toEqual({ "2026-04-14": 900 + 250 });
  });

  it("shares a record spanning hours between them by time before comparing sources", async () => {
    const days = await daysOf(
      exportZip([
        // Half of the phone's 600 falls in 10:00–11:00, half in 11:00–12:00.
        { start: "2026-04-14 10:30:00 +0100", end: "2026-04-14 11:30:00 +0100", value: 600, source: PHONE },
        { start: "2026-04-14 10:00:00 +0100", end: "2026-04-14 10:59:00 +0100", value: 500, source: WATCH },
      ]),
    );
    expect(days).toEqual({ "2026-04-14": 500 + 300 });
  });

  it("skips the records typed into the Health app by hand", async () => {
    const days = await daysOf(
      exportZip([
        { start: "2026-04-13 09:00:00 +0100", end: "2026-04-13 09:30:00 +0100", value: 1_200 },
        {
          start: "2026-04-13 15:00:00 +0100",
          end: "2026-04-13 16:00:00 +0100",
          value: 5_000,
          userEntered: true,
        },
        {
          start: "2026-04-12 15:00:00 +0100",
          end: "2026-04-12 16:00:00 +0100",
          value: 3_000,
          userEntered: true,
        },
      ]),
    );
    expect(days).toEqual({ "2026-04-13": 1_200 });
  });

  it("ignores every record type but step counts", async () => {
    const at = { start: "2026-04-13 09:00:00 +0100", end: "2026-04-13 09:30:00 +0100" };
    const days = await daysOf(
      exportZip([
        { ...at, value: 800 },
        { ...at, value: 7_000, type: "HKQuantityTypeIdentifierHeartRate" },
        { ...at, value: 9_000, type: "HKQuantityTypeIdentifierDistanceWalkingRunning" },
        { ...at, value: 9_000, type: "HKQuantityTypeIdentifierFlightsClimbed" },
        { ...at, value: 9_000, type: "HKQuantityTypeIdentifierActiveEnergyBurned" },
      ]),
    );
    expect(days).toEqual({ "2026-04-13": 800 });
  });

  it("caps a day at 50,000 steps", async () => {
    const days = await daysOf(
      exportZip(
        Array.from({ length: 12 }, (_, hour) => ({
          start: `2026-04-10 ${String(hour + 8).padStart(2, "0")}:00:00 +0100`,
          end: `2026-04-10 ${String(hour + 8).padStart(2, "0")}:59:00 +0100`,
          value: 5_000,
        })),
      ),
    );
    expect(days).toEqual({ "2026-04-10": 50_000 });
  });
});

describe("readHealthExport: records that cannot be right", () => {
  const read = async (records: RecordSpec[]) => {
    const summary = await readHealthExport(chunked(exportZip(records)), { today: "2026-04-15" });
    return {
      days: Object.fromEntries(summary.days.map(({ day, steps }) => [day, steps])),
      impossible: summary.impossibleRecords,
    };
  };

  it("leaves out a record that ends before it starts, and counts it", async () => {
    expect(
      await read([
        { start: "2026-04-14 10:00:00 +0100", end: "2026-04-14 10:30:00 +0100", value: 3_000 },
        { start: "2026-04-14 12:00:00 +0100", end: "2026-04-14 11:00:00 +0100", value: 700 },
      ]),
    ).toEqual({ days: { "2026-04-14": 3_000 }, impossible: 1 });
  });

  it("leaves out a record faster than anyone walks or runs, and keeps one at the fastest possible pace", async () => {
    expect(
      await read([
        // 999,999,999 steps in an hour, and 6,000 in ten minutes (600 a minute): neither is real.
        { start: "2026-04-13 09:00:00 +0100", end: "2026-04-13 10:00:00 +0100", value: 999_999_999 },
        { start: "2026-04-13 11:00:00 +0100", end: "2026-04-13 11:10:00 +0100", value: 6_000 },
        // 5,000 in ten minutes is 500 a minute: a sprint, but possible.
        { start: "2026-04-12 11:00:00 +0100", end: "2026-04-12 11:10:00 +0100", value: 5_000 },
        // A record of no time at all is judged as a minute's steps.
        { start: "2026-04-12 15:00:00 +0100", value: 400 },
        { start: "2026-04-12 16:00:00 +0100", value: 501 },
      ]),
    ).toEqual({ days: { "2026-04-12": 5_400 }, impossible: 3 });
  });

  it("leaves out a record of a year that would fill every day to the cap, and keeps a long walk", async () => {
    expect(
      await read([
        { start: "2025-04-14 00:00:00 +0100", end: "2026-04-14 00:00:00 +0100", value: 999_999_999 },
        // A whole day of an ultramarathon, written as one record: under the day's bound.
        { start: "2026-04-10 00:00:00 +0100", end: "2026-04-11 00:00:00 +0100", value: 80_000 },
      ]),
    ).toEqual({ days: { "2026-04-10": 50_000 }, impossible: 1 });
  });

  it("leaves out a record whose count or end cannot be read", async () => {
    expect(
      await read([
        { start: "2026-04-14 10:00:00 +0100", end: "2026-04-14 10:30:00 +0100", value: Number.NaN },
        { start: "2026-04-14 11:00:00 +0100", end: "2026-04-14 11:30:00 +0100", value: -200 },
        { start: "2026-04-14 12:00:00 +0100", end: "later", value: 300 },
        { start: "2026-04-14 13:00:00 +0100", end: "2026-04-14 13:30:00 +0100", value: 250 },
      ]),
    ).toEqual({ days: { "2026-04-14": 250 }, impossible: 3 });
  });

  it("does not count impossible records outside the last 31 days: they were never going to be imported", async () => {
    expect(
      await read([
        { start: "2025-01-14 12:00:00 +0000", end: "2025-01-14 11:00:00 +0000", value: 700 },
        { start: "2026-03-01 09:00:00 +0000", end: "2026-03-01 10:00:00 +0000", value: 999_999_999 },
        { start: "2026-04-14 10:00:00 +0100", end: "2026-04-14 10:30:00 +0100", value: 1_000 },
      ]),
    ).toEqual({ days: { "2026-04-14": 1_000 }, impossible: 0 });
  });
});

describe("readHealthExport: days and times", () => {
  it("reads the offset of each time exactly, whatever zone the phone was in", () => {
    expect(parseHealthDate("2026-03-29 01:30:00 +0100")).toBe(Date.parse("2026-03-29T00:30:00Z"));
    expect(parseHealthDate("2026-03-28 19:30:00 -0500")).toBe(Date.parse("2026-03-29T00:30:00Z"));
    expect(parseHealthDate("2026-07-01 08:00:00 +0530")).toBe(Date.parse("2026-07-01T02:30:00Z"));
    expect(parseHealthDate("2026-07-01 08:00:00 +0000")).toBe(Date.parse("2026-07-01T08:00:00Z"));
    expect(parseHealthDate("yesterday")).toBeNaN();
  });

  it("puts steps on their London day across the spring clock change", async () => {
    // Clocks go forward at 01:00 UTC on Sunday 29 March 2026.
    const days = await daysOf(
      exportZip([
        // 00:30 GMT on the 29th.
        { start: "2026-03-29 00:30:00 +0000", end: "2026-03-29 00:40:00 +0000", value: 100 },
        // 23:30 on the 28th in New York is 04:30 BST on the 29th.
        { start: "2026-03-28 23:30:00 -0400", end: "2026-03-28 23:40:00 -0400", value: 20 },
        // 23:30 BST on the 29th, still the 29th.
        { start: "2026-03-29 23:30:00 +0100", end: "2026-03-29 23:40:00 +0100", value: 3 },
        // 00:30 BST on the 30th is 23:30 UTC on the 29th: London's 30th.
        { start: "2026-03-30 00:30:00 +0100", end: "2026-03-30 00:40:00 +0100", value: 4_000 },
        // 23:30 GMT on the 28th (00:30 would already be the 29th's first hour).
        { start: "2026-03-28 23:30:00 +0000", end: "2026-03-28 23:40:00 +0000", value: 2_000 },
      ]),
    );
    expect(days).toEqual({ "2026-03-28": 2_000, "2026-03-29": 123, "2026-03-30": 4_000 });
  });

  it("counts the hour repeated when the clocks go back as two hours, and puts each on the right day", async () => {
    // Clocks go back at 01:00 UTC on Sunday 25 October 2026: 01:00–02:00 London happens twice.
    const days = await daysOf(
      exportZip([
        { start: "2026-10-25 01:10:00 +0100", end: "2026-10-25 01:40:00 +0100", value: 600, source: WATCH },
        { start: "2026-10-25 01:10:00 +0000", end: "2026-10-25 01:40:00 +0000", value: 500, source: PHONE },
        // 23:30 UTC on the 24th is 00:30 BST on the 25th.
        { start: "2026-10-24 23:30:00 +0000", end: "2026-10-24 23:50:00 +0000", value: 70 },
        // 23:30 UTC on the 25th is 23:30 GMT: still the 25th.
        { start: "2026-10-25 23:30:00 +0000", end: "2026-10-25 23:50:00 +0000", value: 8 },
        // 22:30 UTC on the 24th is 23:30 BST on the 24th.
        { start: "2026-10-24 22:30:00 +0000", end: "2026-10-24 22:50:00 +0000", value: 9_000 },
      ]),
      "2026-11-10",
    );
    expect(days).toEqual({ "2026-10-24": 9_000, "2026-10-25": 600 + 500 + 70 + 8 });
  });

  it("shares a record running past midnight between the two days", async () => {
    const days = await daysOf(
      exportZip([{ start: "2026-04-13 23:45:00 +0100", end: "2026-04-14 00:15:00 +0100", value: 1_000 }]),
    );
    expect(days).toEqual({ "2026-04-13": 500, "2026-04-14": 500 });
  });

  it("keeps only London today and the 30 days before it", async () => {
    const days = await daysOf(
      exportZip([
        { start: "2025-04-14 12:00:00 +0100", end: "2025-04-14 12:10:00 +0100", value: 11 },
        { start: "2026-03-15 12:00:00 +0000", end: "2026-03-15 12:10:00 +0000", value: 22 },
        { start: "2026-03-16 12:00:00 +0000", end: "2026-03-16 12:10:00 +0000", value: 33 },
        { start: "2026-04-15 12:00:00 +0100", end: "2026-04-15 12:10:00 +0100", value: 44 },
        { start: "2026-04-16 00:30:00 +0100", end: "2026-04-16 00:40:00 +0100", value: 55 },
        // A record over the window's first midnight gives the window only its share.
        { start: "2026-03-15 23:00:00 +0000", end: "2026-03-16 01:00:00 +0000", value: 100 },
      ]),
    );
    expect(days).toEqual({ "2026-03-16": 33 + 50, "2026-04-15": 44 });
  });
});

describe("readHealthExport: files", () => {
  const walk = [
    { start: "2026-04-14 10:05:00 +0100", end: "2026-04-14 10:20:00 +0100", value: 400, source: PHONE },
    { start: "2026-04-14 10:02:00 +0100", end: "2026-04-14 10:30:00 +0100", value: 500, source: WATCH },
  ];

  it("reads the same days whatever the chunk sizes, from a plain export.xml too", async () => {
    const zip = exportZip(walk);
    for (const size of [1, 7, 4096])
      expect(await daysOf(zip, "2026-04-15", size)).toEqual({ "2026-04-14": 500 });
    expect(await daysOf(strToU8(`\ufeff${exportXml(walk)}`), "2026-04-15", 5)).toEqual({ "2026-04-14": 500 });
  });

  it("reads a zip written as a stream (sizes after the data), with the other files of an export around it", async () => {
    const parts: Uint8Array[] = [];
    const zip = new Zip((error, data) => {
      if (error) throw error;
      parts.push(data);
    });
    for (const [name, text] of [
      ["apple_health_export/electrocardiograms/ecg_2026-04-01.csv", "Name,Wendy\n"],
      ["apple_health_export/export.xml", exportXml(walk)],
      ["apple_health_export/export_cda.xml", "<ClinicalDocument/>"],
    ] as const) {
      const file = new ZipDeflate(name, { level: 6 });
      zip.add(file);
      file.push(strToU8(text), true);
    }
    zip.end();
    const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    expect(await daysOf(bytes, "2026-04-15", 1000)).toEqual({ "2026-04-14": 500 });
  });

  it("reports progress in bytes of the file read", async () => {
    const zip = exportZip(walk);
    const seen: number[] = [];
    await readHealthExport(chunked(zip, 100), { today: "2026-04-15", onProgress: (read) => seen.push(read) });
    expect(seen.at(-1)).toBe(zip.length);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.length).toBe(Math.ceil(zip.length / 100));
  });

  it("refuses a zip cut short, whether in export.xml or after it", async () => {
    const many = Array.from({ length: 400 }, (_, index) => ({
      start: `2026-04-14 10:${String(index % 60).padStart(2, "0")}:00 +0100`,
      value: index,
    }));
    const zip = exportZip(many);
    expect(await failure(zip.subarray(0, Math.floor(zip.length / 2)))).toBe("incomplete");
    expect(await failure(zip.subarray(0, zip.length - 10))).toBe("incomplete");
    expect(await failure(zip.subarray(0, 40))).toBe("incomplete");
  });

  it("refuses a zip whose export.xml is damaged", async () => {
    const many = Array.from({ length: 400 }, (_, index) => ({
      start: `2026-04-14 10:${String(index % 60).padStart(2, "0")}:00 +0100`,
      value: index,
    }));
    const damaged = exportZip(many).slice();
    const middle = Math.floor(damaged.length * 0.6);
    damaged.fill(0xff, middle, middle + 64);
    expect(await failure(damaged)).toBe("incomplete");
  });

  it("refuses an XML file that is not Health data, zipped or not", async () => {
    const page = strToU8('<?xml version="1.0"?>\n<html><body>Steps</body></html>');
    expect(await failure(page)).toBe("not-health-data");
    expect(await failure(zipSync({ "apple_health_export/export.xml": page }))).toBe("not-health-data");
  });

  it("refuses an export.xml cut short", async () => {
    const xml = strToU8(exportXml(walk));
    expect(await failure(xml.subarray(0, xml.length - 30))).toBe("incomplete");
  });

  it("refuses a file that is neither a zip nor XML", async () => {
    expect(await failure(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe(
      "not-health-export",
    );
    expect(await failure(strToU8("steps,date\n1000,2026-04-14\n"))).toBe("not-health-export");
    expect(await failure(new Uint8Array(0))).toBe("not-health-export");
  });

  it("refuses a zip with no export.xml inside", async () => {
    expect(await failure(zipSync({ "photos/walk.jpg": new Uint8Array([1, 2, 3]) }))).toBe("no-export-xml");
    expect(await failure(zipSync({}))).toBe("no-export-xml");
  });

  it("stops when cancelled, and returns nothing", async () => {
    const controller = new AbortController();
    const zip = exportZip(walk);
    let chunks = 0;
    async function* slow() {
      for await (const chunk of chunked(zip, 64)) {
        chunks++;
        if (chunks === 3) controller.abort(new DOMException("Cancelled", "AbortError"));
        yield chunk;
      }
    }
    await expect(
      readHealthExport(slow(), { today: "2026-04-15", signal: controller.signal }),
    ).rejects.toThrow("Cancelled");
    expect(chunks).toBe(3);
  });
});
