import {
  type DrawResults,
  type DrawTier,
  drawResultsPagePath,
  formatMonth,
  formatNumber,
  londonMonth,
  type OperatorDraw,
  operatorDrawRunPath,
  unawardedPrizes,
} from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleCheck, Clock, Dices, ExternalLink, Lock, Trophy } from "lucide-react";
import { type RefObject, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { FormProblem } from "../../components/form-problem";
import { serverMessage } from "../../lib/api-client";
import { DRAW_LIST_KEY, drawsNewestFirst, useDrawList } from "../../lib/draw-list";
import { londonShortDay, londonTime } from "../../lib/london-time";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { DrawOutliersList } from "./draw-outliers";
import { DrawPrizesTable } from "./draw-prizes-table";
import { DrawTiersEditor } from "./draw-tiers-editor";
import { DrawRunRefusal, defaultDrawMonth, operatorDrawQuery, postForDraw } from "./operator-draw-queries";
import { AUDIT_LOG_KEY } from "./operator-queries";
import "./operator-draws.css";
import "./operator-reviews.css";

const STATUS_WORDS = { open: "open", closed: "closed, not drawn", drawn: "drawn" } as const;
/** The longest wait setTimeout keeps (about 24.8 days); a close further off is not waited for. */
const TIMER_MAX_MS = 2 ** 31 - 1;

/** "12:00 on 3 Dec", London time. */
const londonMoment = (at: string) => `${londonTime(at)} on ${londonShortDay(at)}`;

/**
 * The monthly draw: pick a month, see where its draw stands, set its prize tiers while it is open,
 * run it once it has closed, and follow each prize to its claim or its redraw.
 */
export function OperatorDraws() {
  const ids = { title: useId(), month: useId() };
  const list = useDrawList();
  const [chosen, setChosen] = useState<string | null>(null);
  const settled = !list.isPending;
  const draws = drawsNewestFirst(list.data);
  // Without the list (it could not be loaded) this month is still offered: its draw says the rest.
  const months = draws.length > 0 ? draws : [{ month: londonMonth(), status: undefined }];
  const preferred = list.data ? defaultDrawMonth(draws) : londonMonth();

  // The month is chosen once, so that running its draw does not move the page to another month.
  useEffect(() => {
    if (chosen === null && settled) setChosen(preferred);
  }, [chosen, settled, preferred]);
  const offered =
    chosen !== null && !months.some((draw) => draw.month === chosen)
      ? [...months, { month: chosen, status: undefined }].sort((a, b) => b.month.localeCompare(a.month))
      : months;

  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="flex items-center gap-2 text-lg font-semibold">
        <Trophy aria-hidden="true" className="size-5 text-brand-strong" />
        Monthly draw
      </h2>
      {chosen === null ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : (
        <>
          <div>
            <label htmlFor={ids.month} className="block text-sm font-medium">
              Month
            </label>
            <select
              id={ids.month}
              className="field"
              value={chosen}
              onChange={(event) => setChosen(event.target.value)}
            >
              {offered.map(({ month, status }) => (
                <option key={month} value={month}>
                  {formatMonth(month)}
                  {status ? ` (${STATUS_WORDS[status]})` : ""}
                </option>
              ))}
            </select>
          </div>
          <DrawMonth key={chosen} month={chosen} />
        </>
      )}
    </section>
  );
}

function DrawMonth({ month }: { month: string }) {
  const queryClient = useQueryClient();
  const ids = { notice: useId(), results: useId() };
  const draw = useQuery(operatorDrawQuery(month));
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [now, setNow] = useState(Date.now);
  const [focusResults, setFocusResults] = useState(0);
  const [focusRun, setFocusRun] = useState(0);
  const resultsRef = useRef<HTMLHeadingElement>(null);
  const runRef = useRef<HTMLButtonElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const [focusNotice, setFocusNotice] = useState(0);

  const status = draw.data?.results.status;
  const closesAt = draw.data?.results.closesAt;
  // At the close the server starts counting: ask it again then, so the page need not be reloaded.
  useEffect(() => {
    if (status !== "open" || !closesAt) return;
    const wait = Date.parse(closesAt) - Date.now() + 1000;
    if (wait <= 0 || wait > TIMER_MAX_MS) return;
    const timer = setTimeout(() => {
      setNow(Date.now());
      void queryClient.invalidateQueries({ queryKey: operatorDrawQuery(month).queryKey });
    }, wait);
    return () => clearTimeout(timer);
  }, [status, closesAt, month, queryClient]);

  useEffect(() => {
    if (focusResults > 0) resultsRef.current?.focus();
  }, [focusResults]);
  useEffect(() => {
    if (focusRun > 0) runRef.current?.focus();
  }, [focusRun]);
  useEffect(() => {
    if (focusNotice > 0) noticeRef.current?.focus();
  }, [focusNotice]);

  const showResults = (results: DrawResults) =>
    queryClient.setQueryData(operatorDrawQuery(month).queryKey, (old: OperatorDraw | undefined) =>
      old ? { ...old, results, tiersEditable: false } : old,
    );
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: operatorDrawQuery(month).queryKey }),
      queryClient.invalidateQueries({ queryKey: DRAW_LIST_KEY }),
      queryClient.invalidateQueries({ queryKey: AUDIT_LOG_KEY }),
    ]);

  const run = useMutation({
    mutationFn: () => postForDraw<DrawResults>(operatorDrawRunPath(month)),
    onSuccess: async (results) => {
      setConfirming(false);
      setNotice(null);
      showResults(results);
      setFocusResults((n) => n + 1);
      toast({ title: "Winners drawn", description: `The draw for ${formatMonth(month)} has been run.` });
      await refresh();
    },
    onError: async (error) => {
      setConfirming(false);
      if (handleUnauthorizedError(error)) return;
      setNotice(serverMessage(error, "The draw could not be run. Check your connection and try again."));
      if (error instanceof DrawRunRefusal && error.alreadyDrawn) {
        showResults(error.alreadyDrawn.results);
        setFocusResults((n) => n + 1);
      } else {
        setFocusRun((n) => n + 1);
      }
      await refresh();
    },
  });

  if (draw.isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (draw.isError || !draw.data) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {serverMessage(draw.error, `The draw for ${formatMonth(month)} could not be loaded.`)}
      </p>
    );
  }
  const { results, walkerTickets, postalTickets, tiersEditable, prizes } = draw.data;
  const pastClose = now >= Date.parse(results.closesAt);
  const runnable = results.status === "closed" || (results.status === "open" && pastClose);

  return (
    <div className="space-y-4">
      <DrawStatusLine results={results} />
      <dl className="draw-facts">
        <dt>Commitment</dt>
        <dd>
          <span className="draw-hex">{results.commitment}</span>
          <span className="block text-xs text-muted">
            SHA-256 of the secret seed, published before the month's entries are counted.
          </span>
        </dd>
        {walkerTickets !== null && postalTickets !== null && (
          <>
            <dt>Tickets</dt>
            <dd>
              {formatNumber(walkerTickets + postalTickets)} in all: {formatNumber(walkerTickets)} from
              walkers' steps, {formatNumber(postalTickets)} from postal entries
            </dd>
          </>
        )}
      </dl>

      {tiersEditable && <DrawOutliersList month={month} />}

      {tiersEditable ? (
        <DrawTiersEditor
          month={month}
          tiers={results.tiers}
          onClosed={(message) => {
            // The form goes away: the reason, where the focus goes, says why.
            setNotice(message);
            setFocusNotice((n) => n + 1);
          }}
        />
      ) : (
        <TiersTable month={month} tiers={results.tiers} />
      )}

      {results.status !== "drawn" && (
        <RunDraw
          month={month}
          runnable={runnable}
          closesAt={results.closesAt}
          confirming={confirming}
          pending={run.isPending}
          runRef={runRef}
          onAsk={() => {
            setNotice(null);
            setConfirming(true);
          }}
          onConfirm={() => run.mutate()}
          onCancel={() => {
            setConfirming(false);
            setFocusRun((n) => n + 1);
          }}
        />
      )}
      <div ref={noticeRef} tabIndex={-1} className="draw-outcome">
        <FormProblem id={ids.notice} problem={notice} />
      </div>

      {results.status === "drawn" && (
        <div className="space-y-3 border-t border-line pt-4">
          <h3
            ref={resultsRef}
            tabIndex={-1}
            id={ids.results}
            className="flex items-center gap-2 font-semibold"
          >
            <Dices aria-hidden="true" className="size-5 text-brand-strong" />
            Results
          </h3>
          <dl className="draw-facts">
            <dt>Seed</dt>
            <dd className="draw-hex">{results.seed}</dd>
            <dt>Beacon</dt>
            <dd>
              {results.beacon ? (
                <>
                  drand round {results.beacon.round}
                  <span className="block text-xs text-muted">
                    chain <span className="draw-hex">{results.beacon.chainHash}</span>
                  </span>
                </>
              ) : (
                "None: the seed alone decided"
              )}
            </dd>
            <dt>Ticket list SHA-256</dt>
            <dd className="draw-hex">{results.ticketListSha256}</dd>
            {results.ticketCount !== undefined && (
              <>
                <dt>Tickets drawn from</dt>
                <dd>{formatNumber(results.ticketCount)}</dd>
              </>
            )}
          </dl>
          <p>
            <Link to={drawResultsPagePath(month)} className="link inline-flex items-center gap-1">
              Public results for {formatMonth(month)}
              <ExternalLink aria-hidden="true" className="size-4" />
            </Link>
          </p>
          <DrawPrizesTable month={month} prizes={prizes} notAwarded={unawardedPrizes(results)} />
        </div>
      )}
    </div>
  );
}

function DrawStatusLine({ results }: { results: DrawResults }) {
  const closes = londonMoment(results.closesAt);
  if (results.status === "open") {
    return (
      <div className="space-y-1 text-sm">
        <p className="draw-badge" data-status="open">
          <Clock aria-hidden="true" className="size-4" />
          Open
        </p>
        <p>
          Steps synced until {closes} (London time) count. Postal entries must arrive by{" "}
          {londonMoment(results.postalClosesAt)}.
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-1 text-sm">
      <p className="draw-badge" data-status={results.status}>
        {results.status === "drawn" ? (
          <CircleCheck aria-hidden="true" className="size-4" />
        ) : (
          <Lock aria-hidden="true" className="size-4" />
        )}
        {results.status === "drawn" ? "Drawn" : "Closed, not drawn"}
      </p>
      <p>Closed at {closes} (London time).</p>
    </div>
  );
}

function TiersTable({ month, tiers }: { month: string; tiers: DrawTier[] }) {
  return (
    <table className="draw-tiers">
      <caption className="text-left font-semibold">
        Prize tiers for {formatMonth(month)}, in the order drawn
      </caption>
      <thead>
        <tr>
          <th scope="col">Tier</th>
          <th scope="col">Prizes</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {tiers.map((tier) => (
          <tr key={tier.name}>
            <th scope="row">{tier.name}</th>
            <td>{tier.prizes}</td>
            <td>{tier.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RunDraw({
  month,
  runnable,
  closesAt,
  confirming,
  pending,
  runRef,
  onAsk,
  onConfirm,
  onCancel,
}: {
  month: string;
  runnable: boolean;
  closesAt: string;
  confirming: boolean;
  pending: boolean;
  runRef: RefObject<HTMLButtonElement | null>;
  onAsk: () => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ids = { hint: useId() };
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // The safe choice takes the focus, so that a second press of the key that opened this draws nothing.
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  if (confirming) {
    return (
      <fieldset className="draw-confirm">
        <legend className="font-semibold">
          This draws the winners for {formatMonth(month)} once and for all.
        </legend>
        <p className="mt-1 text-sm">
          The seed is revealed and the winners are fixed from the tickets counted at the close. A draw is
          never run twice.
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className="btn-primary" disabled={pending} onClick={onConfirm}>
            <Dices aria-hidden="true" className="size-4" />
            {pending ? "Drawing…" : "Draw the winners"}
          </button>
          <button
            ref={cancelRef}
            type="button"
            className="btn-secondary"
            disabled={pending}
            onClick={onCancel}
          >
            Cancel
          </button>
        </div>
      </fieldset>
    );
  }

  return (
    <div className="space-y-1">
      <button
        ref={runRef}
        type="button"
        className="btn-primary"
        disabled={!runnable}
        aria-describedby={runnable ? undefined : ids.hint}
        onClick={onAsk}
      >
        <Dices aria-hidden="true" className="size-4" />
        Run the draw
      </button>
      {!runnable && (
        <p id={ids.hint} className="text-sm text-muted">
          It can be run once it closes, at {londonMoment(closesAt)} (London time).
        </p>
      )}
    </div>
  );
}
