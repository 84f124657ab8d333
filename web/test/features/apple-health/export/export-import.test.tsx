import "fake-indexeddb/auto";
import { File as NodeFile } from "node:buffer";
import { db } from "@charity-steps/client-store/db";
import { pendingSyncs } from "@charity-steps/client-store/outbox";
import { londonDay } from "@charity-steps/shared-types";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { strToU8, zipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HealthExportImport } from "../../../../src/features/apple-health/export/health-export-import";
import { runExportJob } from "../../../../src/features/apple-health/export/health-export-job";
import type {
  ReadExportMessage,
  ReadExportRequest,
} from "../../../../src/features/apple-health/export/health-export-protocol";
import type { ExportWorker } from "../../../../src/features/apple-health/export/import-health-export";
import { noNetwork, stepSyncTaken } from "../../../support/handlers";
import { recordRequests, server } from "../../../support/server";

const NOW = new Date("2026-11-21T12:00:00Z");
const TODAY = londonDay(NOW);

/** Today at 10:00 London, written as export.xml writes times. */
function todayAt(hour: number, minute: number): string {
  const summer = new Date(`${TODAY}T12:00:00Z`).toLocaleString("en-GB", {
    timeZone: "Europe/London",
    timeZoneName: "short",
  });
  const offset = summer.includes("BST") ? "+0100" : "+0000";
  return `${TODAY} ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00 ${offset}`;
}

/** A walk counted by an iPhone and a watch, and `impossible` records of a million steps in 35 minutes. */
function exportZip({ impossible = 0 } = {}): Uint8Array {
  const record = (source: string, value: number) =>
    ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="${source}" unit="count" startDate="${todayAt(10, 5)}" endDate="${todayAt(10, 40)}" value="${value}"/>\n`;
  const records = [record("Wendy’s iPhone", 1_100), record("Wendy’s Apple Watch", 1_234)];
  for (let index = 0; index < impossible; index++) records.push(record("Step Faker", 1_000_000));
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_GB">\n${records.join("")}</HealthData>\n`;
  return zipSync({ "apple_health_export/export.xml": strToU8(xml) });
}

/** A stand-in Worker running the real worker's job in this thread (jsdom has no module workers). */
class InThreadWorker implements ExportWorker {
  onmessage: ((event: MessageEvent<ReadExportMessage>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  constructor(private readonly run = true) {}
  postMessage(request: ReadExportRequest): void {
    if (!this.run) return;
    void runExportJob(request, (message) => {
      if (!this.terminated) this.onmessage?.({ data: message } as MessageEvent<ReadExportMessage>);
    });
  }
  /** Posts as the worker would (for a worker that reads nothing by itself). */
  post(message: ReadExportMessage): void {
    if (!this.terminated) this.onmessage?.({ data: message } as MessageEvent<ReadExportMessage>);
  }
  terminate(): void {
    this.terminated = true;
  }
}

function renderImport(worker: InThreadWorker) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <HealthExportImport createWorker={() => worker} />
    </QueryClientProvider>,
  );
}

function choose(bytes: Uint8Array, name = "export.zip") {
  // Node's File can be read as a stream, as the browser's is; jsdom's cannot.
  const file = new NodeFile([bytes], name);
  fireEvent.change(screen.getByLabelText("Choose the Health export"), { target: { files: [file] } });
}

/** The server takes each step sync (or, offline, none arrives); returns every request sent. */
function serve({ offline = false } = {}) {
  server.use(offline ? noNetwork : stepSyncTaken);
  return recordRequests();
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  db.close();
  await db.delete({ disableAutoOpen: false });
  await db.open();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("HealthExportImport", () => {
  it("imports the export's days, the larger source per hour, and sends them as Apple Health counts", async () => {
    const requests = serve();
    renderImport(new InThreadWorker());
    choose(exportZip());
    expect(await screen.findByText("Imported 1 day of steps from Apple Health.")).toBeTruthy();
    await screen.findByText("They are on your Charity Steps total now.");
    const syncs = requests.filter((request) => request.url === "/api/steps/sync");
    expect(syncs.map((request) => request.body)).toEqual([
      { date: TODAY, steps: 1_234, source: "apple_health" },
    ]);
    expect(await pendingSyncs()).toEqual([]);
  });

  it("says how many records it left out because they cannot be right, and sends only the real steps", async () => {
    const requests = serve();
    renderImport(new InThreadWorker());
    choose(exportZip({ impossible: 2 }));
    const status = await screen.findByRole("status");
    await waitFor(() =>
      expect(status.textContent).toBe(
        "Imported 1 day of steps from Apple Health. They are on your Charity Steps total now. Left out 2 records that cannot be right: each ends before it starts, has a count below zero, or an end or a count that cannot be read, or holds more steps than anyone walks in its time.",
      ),
    );
    const syncs = requests.filter((request) => request.url === "/api/steps/sync");
    expect(syncs.map((request) => request.body)).toEqual([
      { date: TODAY, steps: 1_234, source: "apple_health" },
    ]);
  });

  it("says so of a single record too", async () => {
    serve();
    renderImport(new InThreadWorker());
    choose(exportZip({ impossible: 1 }));
    expect(
      await screen.findByText(/Left out 1 record that cannot be right: it ends before it starts/),
    ).toBeTruthy();
  });

  it("keeps the days queued on the phone when offline", async () => {
    serve({ offline: true });
    renderImport(new InThreadWorker());
    choose(exportZip());
    await screen.findByText("They are saved on this phone and will be sent when you are back online.");
    const queued = await pendingSyncs();
    expect(queued.map(({ body }) => body)).toEqual([{ date: TODAY, steps: 1_234, source: "apple_health" }]);
  });

  it("shows the progress as a labelled bar with the percent of the file read", async () => {
    serve();
    const worker = new InThreadWorker(false);
    renderImport(worker);
    choose(exportZip());
    worker.post({ type: "progress", bytesRead: 420, totalBytes: 1_000 });
    const bar = await screen.findByRole("progressbar", { name: "Reading export.zip: 42%" });
    expect(bar.getAttribute("value")).toBe("42");
  });

  it("says clearly when the file is not a Health export, and imports nothing", async () => {
    const requests = serve();
    renderImport(new InThreadWorker());
    choose(strToU8("date,steps\n2026-04-01,1000\n"), "steps.csv");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("This file is not an Apple Health export.");
    expect(await pendingSyncs()).toEqual([]);
    expect(requests).toEqual([]);
  });

  it("says clearly when the export is cut short, and imports nothing", async () => {
    serve();
    renderImport(new InThreadWorker());
    const zip = exportZip();
    choose(zip.subarray(0, zip.length - 30));
    expect((await screen.findByRole("alert")).textContent).toContain("This export is incomplete or damaged");
    expect(await pendingSyncs()).toEqual([]);
  });

  it("Cancel stops the worker and imports nothing, even if it had finished reading", async () => {
    const requests = serve();
    const worker = new InThreadWorker(false);
    renderImport(worker);
    choose(exportZip());
    worker.post({ type: "progress", bytesRead: 100, totalBytes: 1_000 });
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(worker.terminated).toBe(true);
    await screen.findByText("Import cancelled: nothing was imported.");
    // A result already on its way when the worker was stopped is dropped.
    worker.terminated = false;
    worker.post({
      type: "done",
      summary: {
        days: [{ day: TODAY, steps: 5_000 }],
        stepRecords: 1,
        userEnteredRecords: 0,
        impossibleRecords: 0,
        xmlBytes: 10,
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/Imported/)).toBeNull();
    await waitFor(async () => expect(await pendingSyncs()).toEqual([]));
    expect(requests).toEqual([]);
  });
});
