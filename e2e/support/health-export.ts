/**
 * Writes a realistic Apple Health export.zip to a file, streaming (the XML is made and deflated in
 * pieces, never held whole), for the e2e import test and the bench: years of heart rate, active and
 * basal energy, walking distance and step counts, the steps measured by both an iPhone and an Apple
 * Watch for the same walks, a step record typed in by hand, the zip laid out as the Health app lays
 * it out (export.xml, export_cda.xml, a workout route). It also says what the import must find: per
 * London day of the last 31, the sum over hours of the larger source's steps.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { Zip, ZipDeflate } from "fflate";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** London today and the 30 days before it: the days an import sends. */
const WINDOW_DAYS = 31;
/** About what one day of this export's records weighs, to pick how many years make the size asked for. */
const XML_BYTES_PER_DAY = 380_000;

export interface HealthExportOptions {
  /** Where to write export.zip. */
  path: string;
  /** About how large export.xml should be (at least the last 31 days are always written). */
  xmlBytes: number;
  /** The export's moment; defaults to now. */
  now?: number;
  seed?: number;
  /**
   * How hard the files are deflated (0-9, 6 by default as zip tools do). 1 makes the same export
   * several times faster, for a reader that has the same inflating and parsing to do.
   */
  level?: DeflateLevel;
}

type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

export interface GeneratedHealthExport {
  path: string;
  xmlBytes: number;
  zipBytes: number;
  /** Days of records written (oldest first from `now` back). */
  days: number;
  /** London day → the steps an import must find, for each of the last 31 days with steps. */
  expected: Map<string, number>;
}

const london = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
});

interface LondonHour {
  day: string;
  hour: number;
  /** "+0000" or "+0100". */
  offset: string;
  offsetMs: number;
}

const londonHours = new Map<number, LondonHour>();
/** The London day, clock hour and UTC offset of the UTC hour `hour` (ms / 1 h). */
function londonHour(hour: number): LondonHour {
  let found = londonHours.get(hour);
  if (found === undefined) {
    const parts = Object.fromEntries(
      london.formatToParts(hour * HOUR_MS).map((part) => [part.type, part.value]),
    );
    const day = `${parts.year}-${parts.month}-${parts.day}`;
    const clock = Number(parts.hour);
    const offsetMs = Date.parse(`${day}T${String(clock).padStart(2, "0")}:00:00Z`) - hour * HOUR_MS;
    found = { day, hour: clock, offset: offsetMs === 0 ? "+0000" : "+0100", offsetMs };
    londonHours.set(hour, found);
  }
  return found;
}

/** As export.xml writes times: London wall clock and its offset, `2026-03-29 01:30:00 +0100`. */
function healthDate(time: number): string {
  const { offset, offsetMs } = londonHour(Math.floor(time / HOUR_MS));
  const local = new Date(Math.floor(time / 1000) * 1000 + offsetMs).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)} ${offset}`;
}

/** A small seeded generator (mulberry32), so a size always gives the same file. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const IPHONE = {
  name: "Wendy’s iPhone",
  version: "17.4.1",
  device:
    "&lt;&lt;HKDevice: 0x283c14a50&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.4.1, creation date:2024-04-02 08:12:40 +0000&gt;",
};
const WATCH = {
  name: "Wendy’s Apple Watch",
  version: "10.4",
  device:
    "&lt;&lt;HKDevice: 0x283c15e00&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.4, creation date:2024-04-02 08:12:40 +0000&gt;",
};
type Source = typeof IPHONE;
const BROKEN_APP: Source = { name: "Step Booster", version: "0.1", device: "" };

function record(
  type: string,
  source: Source,
  unit: string,
  start: number,
  end: number,
  value: string,
  metadata = "",
): string {
  // Sources save their records a little after they end, each at its own moment.
  const saved = end + Math.floor(((start * 7_919) % 600_007) + 1_000);
  const head = `  <Record type="${type}" sourceName="${source.name}" sourceVersion="${source.version}" device="${source.device}" unit="${unit}" creationDate="${healthDate(saved)}" startDate="${healthDate(start)}" endDate="${healthDate(end)}" value="${value}"`;
  return metadata === "" ? `${head}/>\n` : `${head}>\n${metadata}  </Record>\n`;
}

const HEADER = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex        CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType            CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType  CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
]>
`;

/**
 * Writes the export and resolves to what it wrote. Records come grouped by type, oldest first, as the
 * Health app writes them.
 */
export async function writeHealthExport({
  path,
  xmlBytes,
  now = Date.now(),
  seed = 2026,
  level = 6,
}: HealthExportOptions): Promise<GeneratedHealthExport> {
  const days = Math.max(WINDOW_DAYS + 1, Math.ceil(xmlBytes / XML_BYTES_PER_DAY));
  const lastHour = Math.floor(now / HOUR_MS) - 1;
  const firstHour = lastHour - days * 24;
  const today = londonHour(Math.floor(now / HOUR_MS)).day;
  const windowStart = new Date(Date.parse(`${today}T00:00:00Z`) - (WINDOW_DAYS - 1) * DAY_MS)
    .toISOString()
    .slice(0, 10);
  const expected = new Map<string, number>();

  const out = createWriteStream(path);
  let zipBytes = 0;
  let written = 0;
  let failed: Error | undefined;
  const zip = new Zip((error, data, final) => {
    if (error) {
      failed = error;
      return;
    }
    zipBytes += data.length;
    out.write(data);
    if (final) out.end();
  });
  const encoder = new TextEncoder();

  const addFile = async (name: string, write: (emit: (text: string) => Promise<void>) => Promise<void>) => {
    const entry = new ZipDeflate(name, { level });
    zip.add(entry);
    let pending = "";
    const flush = async (final: boolean) => {
      const bytes = encoder.encode(pending);
      if (name.endsWith("/export.xml")) written += bytes.length;
      pending = "";
      entry.push(bytes, final);
      if (failed) throw failed;
      if (out.writableNeedDrain) await once(out, "drain");
    };
    await write(async (text) => {
      pending += text;
      if (pending.length >= 1 << 20) await flush(false);
    });
    await flush(true);
  };

  await addFile("apple_health_export/export.xml", async (emit) => {
    await emit(HEADER);
    await emit(`<HealthData locale="en_GB">\n <ExportDate value="${healthDate(now)}"/>\n`);
    await emit(
      ` <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-17" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n`,
    );
    const next = random(seed);
    const awake = (hour: number) => {
      const clock = londonHour(hour).hour;
      return clock >= 7 && clock <= 22;
    };

    // Heart rate from the watch, every few minutes while awake, with its motion context.
    for (let hour = firstHour; hour <= lastHour; hour++) {
      const every = awake(hour) ? 5 : 12;
      for (let minute = 0; minute < 60; minute += every) {
        const at = hour * HOUR_MS + minute * 60_000 + Math.floor(next() * 50_000);
        const bpm = Math.round(58 + next() * (awake(hour) ? 60 : 15));
        const context = `   <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="${next() < 0.7 ? 1 : 0}"/>\n`;
        await emit(
          record("HKQuantityTypeIdentifierHeartRate", WATCH, "count/min", at, at, String(bpm), context),
        );
      }
    }
    // Active and basal energy from the watch, every 5 and 15 minutes.
    for (const [type, every, scale] of [
      ["HKQuantityTypeIdentifierActiveEnergyBurned", 5, 4],
      ["HKQuantityTypeIdentifierBasalEnergyBurned", 15, 18],
    ] as const) {
      for (let hour = firstHour; hour <= lastHour; hour++) {
        for (let minute = 0; minute < 60; minute += every) {
          const start = hour * HOUR_MS + minute * 60_000;
          const value = (next() * scale).toFixed(3);
          await emit(record(type, WATCH, "kcal", start, start + every * 60_000 - 1_000, value));
        }
      }
    }
    // Walking distance from both devices while awake.
    for (let hour = firstHour; hour <= lastHour; hour++) {
      if (!awake(hour)) continue;
      for (const source of [IPHONE, WATCH]) {
        for (let minute = 0; minute < 60; minute += 15) {
          const start = hour * HOUR_MS + minute * 60_000 + Math.floor(next() * 120_000);
          const value = (next() * 0.6).toFixed(5);
          await emit(
            record(
              "HKQuantityTypeIdentifierDistanceWalkingRunning",
              source,
              "km",
              start,
              start + 600_000,
              value,
            ),
          );
        }
      }
    }
    // Steps: each waking hour both devices count (mostly) the same walk, each in its own pieces; the
    // import must keep the larger device per hour, never the sum.
    for (let hour = firstHour; hour <= lastHour; hour++) {
      if (!awake(hour) || next() < 0.25) continue;
      const walked = Math.round(200 + next() * 1_400);
      const phone = next() < 0.15 ? 0 : Math.round(walked * (0.8 + next() * 0.3));
      const watch = next() < 0.15 ? 0 : Math.round(walked * (0.85 + next() * 0.25));
      for (const [source, steps, pieces] of [
        [IPHONE, phone, 3],
        [WATCH, watch, 5],
      ] as const) {
        let left = steps;
        for (let piece = 0; piece < pieces && left > 0; piece++) {
          const share =
            piece === pieces - 1 ? left : Math.min(left, Math.round((steps / pieces) * (0.5 + next())));
          left -= share;
          if (share === 0) continue;
          const slot = 60 / pieces;
          const start = hour * HOUR_MS + Math.floor((piece * slot + next() * 2) * 60_000);
          const end = start + Math.floor((slot - 3) * 60_000 * (0.5 + next() * 0.5));
          await emit(record("HKQuantityTypeIdentifierStepCount", source, "count", start, end, String(share)));
        }
      }
      const { day } = londonHour(hour);
      if (day >= windowStart) expected.set(day, (expected.get(day) ?? 0) + Math.max(phone, watch));
    }
    // A walk typed into the Health app by hand yesterday afternoon: it must not count.
    const typedAt = Date.parse(`${windowStart}T15:00:00Z`) + (WINDOW_DAYS - 2) * DAY_MS;
    await emit(
      record(
        "HKQuantityTypeIdentifierStepCount",
        { ...IPHONE, device: "" },
        "count",
        typedAt,
        typedAt + HOUR_MS,
        "4000",
        `   <MetadataEntry key="HKWasUserEntered" value="1"/>\n`,
      ).replace(' device=""', ""),
    );
    // A record no phone or watch could have measured (a million steps in a minute, from a broken
    // app, the day before yesterday): the import leaves it out and says so.
    const brokenAt = typedAt - DAY_MS;
    await emit(
      record(
        "HKQuantityTypeIdentifierStepCount",
        BROKEN_APP,
        "count",
        brokenAt,
        brokenAt + 60_000,
        "1000000",
      ).replace(' device=""', ""),
    );
    for (let day = 0; day < days; day++) {
      const date = new Date(now - (days - day) * DAY_MS).toISOString().slice(0, 10);
      await emit(
        ` <ActivitySummary dateComponents="${date}" activeEnergyBurned="${Math.round(next() * 600)}" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal" appleExerciseTime="${Math.round(next() * 60)}" appleExerciseTimeGoal="30" appleStandHours="${Math.round(next() * 14)}" appleStandHoursGoal="12"/>\n`,
      );
    }
    await emit("</HealthData>\n");
  });
  await addFile("apple_health_export/export_cda.xml", async (emit) => {
    await emit(
      `<?xml version="1.0" encoding="UTF-8"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3"><title>Health Data</title></ClinicalDocument>\n`,
    );
  });
  await addFile("apple_health_export/workout-routes/route_2026-11-01_9.12am.gpx", async (emit) => {
    await emit(
      `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Apple Health Export"><trk><trkseg>`,
    );
    for (let point = 0; point < 200; point++) {
      await emit(`<trkpt lon="-0.1${point}" lat="51.5${point}"><ele>12</ele></trkpt>`);
    }
    await emit(`</trkseg></trk></gpx>\n`);
  });
  zip.end();
  if (!out.writableFinished) await once(out, "finish");
  if (failed) throw failed;
  return { path, xmlBytes: written, zipBytes, days, expected };
}
