// biome-ignore-all lint/a11y/noRedundantRoles: on a phone the prizes table is laid out as cards (display: block), which drops a table's semantics in some browsers; the explicit roles keep them.
import {
  countOf,
  type OperatorDraw,
  type OperatorPrize,
  operatorPrizeRedrawPath,
  type RedrawResponse,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CircleCheck, CircleX, Hourglass, Repeat } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { FormProblem } from "../../components/form-problem";
import { serverMessage } from "../../lib/api-client";
import { londonShortDay, londonTime } from "../../lib/london-time";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { operatorDrawQuery, postForDraw } from "./operator-draw-queries";
import { AUDIT_LOG_KEY } from "./operator-queries";
import { PostalClaimForm } from "./postal-claim-form";

/** "17 Nov, 12:00" (the year too when it is not this one), London time. */
export function londonAt(at: string): string {
  return `${londonShortDay(at)}, ${londonTime(at)}`;
}

function winnerLine(prize: OperatorPrize): string {
  const contact = prize.winner.email ?? prize.winner.address?.replaceAll("\n", ", ") ?? null;
  return contact ? `${prize.winner.name} (${contact})` : prize.winner.name;
}

/** What the redraw answered: the new winner, or that nobody was left to win. */
type Outcome = { kind: "won"; prize: OperatorPrize; tier: string } | { kind: "none"; tier: string } | null;

/**
 * The month's prizes with who won each and where it stands. A prize unclaimed after the days to
 * claim can be redrawn: the next pick of the same sequence takes it, so the draw stays checkable.
 */
export function DrawPrizesTable({
  month,
  prizes,
  notAwarded,
}: {
  month: string;
  prizes: OperatorPrize[];
  /** Each tier's prizes that went to nobody, as the public results say them. */
  notAwarded: readonly { tier: string; count: number }[];
}) {
  const queryClient = useQueryClient();
  const ids = { title: useId(), problem: useId() };
  const [confirming, setConfirming] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const [focusOutcome, setFocusOutcome] = useState(0);
  const tableRef = useRef<HTMLDivElement>(null);
  const [focusRedraw, setFocusRedraw] = useState<string | null>(null);

  useEffect(() => {
    if (focusOutcome > 0) outcomeRef.current?.focus();
  }, [focusOutcome]);
  useEffect(() => {
    if (focusRedraw === null) return;
    setFocusRedraw(null);
    tableRef.current?.querySelector<HTMLButtonElement>(`[data-redraw="${focusRedraw}"]`)?.focus();
  }, [focusRedraw]);

  const redraw = useMutation({
    mutationFn: (prize: OperatorPrize) => postForDraw<RedrawResponse>(operatorPrizeRedrawPath(prize.id)),
    onSuccess: async (answer, old) => {
      setProblem(null);
      setConfirming(null);
      setOutcome(
        answer.prize
          ? { kind: "won", prize: answer.prize, tier: old.tier }
          : { kind: "none", tier: old.tier },
      );
      setFocusOutcome((n) => n + 1);
      toast({
        title: answer.prize ? "Prize redrawn" : "Prize not given again",
        description: answer.prize
          ? `${old.tier}: the new winner is ${winnerLine(answer.prize)}.`
          : `${old.tier}: every entrant has already won this month, so nobody was left to draw.`,
      });
      // Shown at once from the answer; the reload then brings every prize's state as stored.
      queryClient.setQueryData(operatorDrawQuery(month).queryKey, (draw: OperatorDraw | undefined) =>
        draw
          ? {
              ...draw,
              results: answer.results,
              prizes: [
                ...draw.prizes.map((prize) =>
                  prize.id === old.id ? { ...prize, status: "redrawn" as const, canRedraw: false } : prize,
                ),
                ...(answer.prize ? [answer.prize] : []),
              ],
            }
          : draw,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: operatorDrawQuery(month).queryKey }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_KEY }),
      ]);
    },
    onError: async (error) => {
      setConfirming(null);
      if (handleUnauthorizedError(error)) return;
      setOutcome(null);
      setProblem(
        serverMessage(error, "The prize could not be redrawn. Check your connection and try again."),
      );
      setFocusOutcome((n) => n + 1);
      // The refusal may mean the prize changed meanwhile (claimed, or redrawn by another operator).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: operatorDrawQuery(month).queryKey }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_KEY }),
      ]);
    },
  });

  return (
    <div ref={tableRef} className="space-y-3">
      <h4 id={ids.title} className="font-semibold">
        Prizes
      </h4>
      <div ref={outcomeRef} tabIndex={-1} className="draw-outcome">
        <FormProblem id={ids.problem} problem={problem} />
        {outcome?.kind === "won" && (
          <p className="draw-notice">
            <Repeat aria-hidden="true" className="size-4 shrink-0" />
            {/* A flex item is as wide as its longest word unless it may be narrower: a winner's name
                with no spaces would otherwise run out of the card on a phone. */}
            <span className="min-w-0">
              New winner for {outcome.tier}: ticket <span className="font-mono">{outcome.prize.ticket}</span>,{" "}
              {winnerLine(outcome.prize)},{" "}
              {outcome.prize.winner.kind === "postal" ? "postal entry" : "walker"}. They have until{" "}
              {londonAt(outcome.prize.claimBy)} to claim it.
            </span>
          </p>
        )}
        {outcome?.kind === "none" && (
          <p className="draw-notice">
            <Repeat aria-hidden="true" className="size-4 shrink-0" />
            <span>
              {outcome.tier}: the prize was not given again, since every entrant has already won a prize this
              month.
            </span>
          </p>
        )}
      </div>
      {notAwarded.length > 0 && (
        <p className="text-sm text-muted" data-testid="draw-not-awarded">
          Not awarded, as fewer people were in the draw than there were prizes:{" "}
          {notAwarded.map(({ tier, count }) => `${tier} ${countOf(count, "prize")}`).join(", ")}.
        </p>
      )}
      {prizes.length === 0 ? (
        <p className="text-sm text-muted">
          No prizes were drawn: there were no tickets, or no tiers with prizes.
        </p>
      ) : (
        <table role="table" className="draw-prizes" aria-labelledby={ids.title}>
          <thead role="rowgroup">
            <tr role="row">
              <th role="columnheader" scope="col">
                Tier
              </th>
              <th role="columnheader" scope="col">
                Ticket
              </th>
              <th role="columnheader" scope="col">
                Winner
              </th>
              <th role="columnheader" scope="col">
                Status
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {prizes.map((prize) => (
              <tr
                role="row"
                key={prize.id}
                data-new={outcome?.kind === "won" && outcome.prize.id === prize.id ? "" : undefined}
              >
                <th role="rowheader" scope="row" data-label="Tier">
                  {prize.tier}
                </th>
                <td role="cell" data-label="Ticket">
                  <span className="font-mono">{prize.ticket}</span>
                  <span className="block text-xs text-muted">
                    Pick {prize.pick}
                    {prize.replaces !== null ? `, redraw of pick ${prize.replaces}` : ""}
                  </span>
                </td>
                <td role="cell" data-label="Winner">
                  <span className="block font-medium">{prize.winner.name}</span>
                  {prize.winner.email && <span className="block draw-email">{prize.winner.email}</span>}
                  {prize.winner.address && (
                    <span className="block whitespace-pre-line">{prize.winner.address}</span>
                  )}
                  <span className="block text-xs text-muted">
                    {prize.winner.kind === "postal" ? "Postal entry" : "Walker"}
                  </span>
                </td>
                <td role="cell" data-label="Status">
                  <PrizeStatusText
                    prize={prize}
                    replacement={prizes.find((other) => other.replaces === prize.pick)}
                  />
                  {prize.canRecordClaim && <PostalClaimForm month={month} prize={prize} />}
                  {prize.canRedraw &&
                    (confirming === prize.id ? (
                      <RedrawConfirm
                        prize={prize}
                        pending={redraw.isPending}
                        onConfirm={() => redraw.mutate(prize)}
                        onCancel={() => {
                          setConfirming(null);
                          setFocusRedraw(prize.id);
                        }}
                      />
                    ) : (
                      <button
                        type="button"
                        className="btn-secondary draw-small-button mt-2"
                        data-redraw={prize.id}
                        aria-label={`Redraw ${prize.tier}, ticket ${prize.ticket}`}
                        onClick={() => {
                          setProblem(null);
                          setConfirming(prize.id);
                        }}
                      >
                        <Repeat aria-hidden="true" className="size-4" />
                        Redraw
                      </button>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A prize's state; a redrawn one says where it went: the pick that replaced it, or nobody. */
function PrizeStatusText({ prize, replacement }: { prize: OperatorPrize; replacement?: OperatorPrize }) {
  switch (prize.status) {
    case "awaiting_claim":
      return (
        <span className="draw-prize-status">
          <Hourglass aria-hidden="true" className="size-4 shrink-0" />
          Awaiting claim until {londonAt(prize.claimBy)}
        </span>
      );
    case "claimed":
      return (
        <>
          <span className="draw-prize-status" data-status="claimed">
            <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
            Claimed {prize.claimedAt ? londonAt(prize.claimedAt) : ""}
          </span>
          <span className="block">
            Published as {prize.publicName ?? "(no name)"}
            {prize.county ? `, ${prize.county}` : ""}
          </span>
          {prize.deliveryAddress && (
            <span className="block whitespace-pre-line">
              <span className="font-medium">Send to:</span> {prize.deliveryAddress}
            </span>
          )}
        </>
      );
    case "expired":
      return (
        <span className="draw-prize-status" data-status="expired">
          <CircleX aria-hidden="true" className="size-4 shrink-0" />
          Expired: not claimed by {londonAt(prize.claimBy)}
        </span>
      );
    case "redrawn":
      return (
        <span className="draw-prize-status">
          <Repeat aria-hidden="true" className="size-4 shrink-0" />
          {replacement
            ? `Redrawn: given to pick ${replacement.pick}`
            : "Redrawn: not given again, as every entrant had already won"}
        </span>
      );
  }
}

function RedrawConfirm({
  prize,
  pending,
  onConfirm,
  onCancel,
}: {
  prize: OperatorPrize;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  // The safe choice takes the focus, so that a second press of the key that opened this redraws nothing.
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    // A fieldset is at least as wide as its longest word (`min-inline-size: min-content`): the winner's
    // name in the question, with no spaces, would otherwise widen the card past a phone's screen.
    <fieldset className="draw-confirm mt-2 min-w-0">
      <legend className="text-sm">
        This gives the prize ({prize.tier}, ticket {prize.ticket}) to the next pick of the draw, once and for
        all: {prize.winner.name} can no longer claim it.
      </legend>
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-primary draw-small-button"
          disabled={pending}
          onClick={onConfirm}
        >
          {pending ? "Redrawing…" : "Redraw the prize"}
        </button>
        <button ref={cancelRef} type="button" className="btn-secondary draw-small-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
