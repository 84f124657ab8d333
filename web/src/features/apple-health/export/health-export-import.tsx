import { countOf } from "@charity-steps/shared-types";
import { useQueryClient } from "@tanstack/react-query";
import { FileUp, HeartPulse } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { refreshStepQueries } from "../../../lib/step-queries";
import {
  type ImportDelivery,
  type ImportOptions,
  importHealthExport,
  type RunningImport,
} from "./import-health-export";

type State =
  | { phase: "idle" }
  | { phase: "reading"; fileName: string; percent: number }
  | { phase: "imported"; days: number; impossible: number; delivery: ImportDelivery | "sending" }
  | { phase: "cancelled" }
  | { phase: "failed"; message: string };

const DELIVERY_TEXT: Record<ImportDelivery | "sending", string> = {
  sending: "Sending them to Charity Steps…",
  sent: "They are on your Charity Steps total now.",
  later: "They are saved on this phone and will be sent when you are back online.",
  "signed-out": "They are saved on this phone and will be sent once you sign in again.",
};

/** What the import left out of the accepted days because no phone or watch could have measured it. */
function leftOut(records: number): string {
  const each = records === 1 ? "it" : "each";
  return `Left out ${countOf(records, "record")} that cannot be right: ${each} ends before it starts, has a count below zero, or an end or a count that cannot be read, or holds more steps than anyone walks in its time.`;
}

/**
 * Imports the steps of the last 31 days from the Health app's "Export All Health Data" file, read on
 * this phone (never uploaded): a file picker, a progress bar, Cancel, and the result.
 */
export function HealthExportImport({ createWorker }: Pick<ImportOptions, "createWorker"> = {}) {
  const [state, setState] = useState<State>({ phase: "idle" });
  const running = useRef<RunningImport | null>(null);
  const queryClient = useQueryClient();
  const id = useId();

  // Leaving the page stops a read in progress: nothing half-read is imported.
  useEffect(() => () => running.current?.cancel(), []);

  const start = async (file: File) => {
    running.current?.cancel();
    setState({ phase: "reading", fileName: file.name, percent: 0 });
    const current = importHealthExport(file, {
      createWorker,
      onProgress: ({ percent }) =>
        setState((shown) => (shown.phase === "reading" ? { ...shown, percent } : shown)),
      onSent: () => void refreshStepQueries(queryClient),
    });
    running.current = current;
    try {
      const outcome = await current.result;
      if (running.current !== current) return;
      if (outcome.status === "cancelled") {
        setState({ phase: "cancelled" });
        return;
      }
      const imported = {
        phase: "imported",
        days: outcome.summary.days.length,
        impossible: outcome.summary.impossibleRecords,
      } as const;
      setState({ ...imported, delivery: "sending" });
      const delivery = await outcome.delivery;
      if (running.current !== current) return;
      setState({ ...imported, delivery });
    } catch (error) {
      if (running.current !== current) return;
      setState({ phase: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  };

  const reading = state.phase === "reading";

  return (
    <section className="card space-y-3 p-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold">
        <HeartPulse aria-hidden="true" className="size-5 text-brand-strong" />
        Import a Health export
      </h2>
      <p className="text-sm text-muted">
        In the Health app, tap your picture, then Export All Health Data, and choose the export.zip it makes.
        It is read on this phone and never uploaded; the measured steps of the last 31 days are added.
      </p>
      <label
        htmlFor={`${id}-file`}
        className={`btn-primary w-full cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-strong ${reading ? "pointer-events-none opacity-60" : ""}`}
      >
        <FileUp aria-hidden="true" className="size-4" />
        Choose the Health export
        <input
          id={`${id}-file`}
          type="file"
          accept=".zip,.xml,application/zip,text/xml,application/xml"
          disabled={reading}
          className="sr-only"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void start(file);
          }}
        />
      </label>
      {reading && (
        <div className="space-y-2">
          <label htmlFor={`${id}-progress`} className="block text-sm">
            Reading {state.fileName}: {state.percent}%
          </label>
          <progress id={`${id}-progress`} className="h-2 w-full accent-brand" max={100} value={state.percent}>
            {state.percent}%
          </progress>
          <button
            type="button"
            className="btn-secondary"
            onClick={() => {
              running.current?.cancel();
            }}
          >
            Cancel
          </button>
        </div>
      )}
      {state.phase === "imported" && (
        <p className="text-sm" role="status">
          <span className="font-semibold">
            Imported {countOf(state.days, "day")} of steps from Apple Health.
          </span>{" "}
          {state.days === 0
            ? "The export has no measured steps for the last 31 days."
            : DELIVERY_TEXT[state.delivery]}
          {state.impossible > 0 && ` ${leftOut(state.impossible)}`}
        </p>
      )}
      {state.phase === "cancelled" && (
        <p className="text-sm text-muted" role="status">
          Import cancelled: nothing was imported.
        </p>
      )}
      {state.phase === "failed" && (
        <p className="text-sm text-destructive" role="alert">
          {state.message}
        </p>
      )}
    </section>
  );
}
