import {
  FAIR_PLAY_MESSAGES,
  REVIEW_DECISION_REASON_MAX_CHARS,
  type ReviewDecisionRequest,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { CharacterCount, overLimit, tooLongMessage } from "../../components/character-count";
import { FormProblem } from "../../components/form-problem";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { type ToastOptions, toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { AUDIT_LOG_KEY, REVIEW_QUEUE_KEY, WALKER_REVIEWS_KEY } from "./operator-queries";

/**
 * An operator's decision on steps waiting for a check (one review item, or a walker's whole month),
 * sent to `path`: its reason and two buttons. Once saved, the operator is told what it did
 * (`told`), `onDecided` runs (the card leaves its list, so the focus goes to the list's heading),
 * and both lists of what waits and the audit log are read again. When it cannot be saved, the
 * reason shows by the buttons and the list it came from (`refresh`) is read again: another operator
 * may have decided it meanwhile.
 */
export function ReviewDecision<Decided>({
  path,
  told,
  onDecided,
  refresh,
  labels,
}: {
  path: string;
  told: (decided: Decided) => ToastOptions;
  onDecided: () => void;
  refresh: readonly unknown[];
  labels: { approve: string; approving: string; reject: string; rejecting: string };
}) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: async (body: ReviewDecisionRequest) =>
      (await (await apiRequest("POST", path, body)).json()) as Decided,
    onSuccess: async (decided) => {
      setProblem(null);
      toast(told(decided));
      onDecided();
      await Promise.all(
        [REVIEW_QUEUE_KEY, WALKER_REVIEWS_KEY, AUDIT_LOG_KEY].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
    onError: async (error) => {
      if (handleUnauthorizedError(error)) return;
      setProblem(
        serverMessage(error, "The decision could not be saved. Check your connection and try again."),
      );
      await queryClient.invalidateQueries({ queryKey: refresh });
    },
  });
  return (
    <DecisionControls
      pending={decide.isPending ? (decide.variables?.decision ?? null) : null}
      problem={problem}
      onProblem={setProblem}
      onDecide={(body) => decide.mutate(body)}
      labels={labels}
    />
  );
}

/**
 * A decision's reason (shown to the walker; needed to reject) and its two buttons, for one review
 * item or for a walker's whole month.
 */
function DecisionControls({
  pending,
  problem,
  onProblem,
  onDecide,
  labels,
}: {
  /** The decision being saved, if one is. */
  pending: ReviewDecisionRequest["decision"] | null;
  problem: string | null;
  onProblem: (problem: string | null) => void;
  onDecide: (body: ReviewDecisionRequest) => void;
  labels: { approve: string; approving: string; reject: string; rejecting: string };
}) {
  const ids = { reason: useId(), reasonHelp: useId(), problem: useId() };
  const [reason, setReason] = useState("");
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const reasonTooLong = () => {
    if (!overLimit(reason.trim(), REVIEW_DECISION_REASON_MAX_CHARS)) return false;
    onProblem(tooLongMessage("The reason", REVIEW_DECISION_REASON_MAX_CHARS));
    reasonRef.current?.focus();
    return true;
  };
  const approve = () => {
    const given = reason.trim();
    if (reasonTooLong()) return;
    onDecide({ decision: "approve", ...(given ? { reason: given } : {}) });
  };
  const reject = () => {
    const given = reason.trim();
    if (!given) {
      onProblem(FAIR_PLAY_MESSAGES.reasonRequired);
      reasonRef.current?.focus();
      return;
    }
    if (reasonTooLong()) return;
    onDecide({ decision: "reject", reason: given });
  };
  const reasonInvalid =
    problem === FAIR_PLAY_MESSAGES.reasonRequired ||
    problem === tooLongMessage("The reason", REVIEW_DECISION_REASON_MAX_CHARS);
  return (
    <>
      <div>
        <label htmlFor={ids.reason} className="block text-sm font-medium">
          Reason{" "}
          <span id={ids.reasonHelp} className="font-normal text-muted">
            (shown to the walker; needed to reject)
          </span>
          <textarea
            ref={reasonRef}
            id={ids.reason}
            rows={2}
            className="field"
            value={reason}
            aria-invalid={reasonInvalid}
            aria-describedby={`${ids.reasonHelp} ${ids.reason}-count${reasonInvalid ? ` ${ids.problem}` : ""}`}
            onChange={(event) => {
              setReason(event.target.value);
              if (reasonInvalid) onProblem(null);
            }}
          />
        </label>
        <CharacterCount
          id={`${ids.reason}-count`}
          label="The reason"
          text={reason.trim()}
          max={REVIEW_DECISION_REASON_MAX_CHARS}
        />
      </div>
      <FormProblem id={ids.problem} problem={problem} />
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-primary" disabled={pending !== null} onClick={approve}>
          {pending === "approve" ? labels.approving : labels.approve}
        </button>
        <button type="button" className="btn-secondary" disabled={pending !== null} onClick={reject}>
          {pending === "reject" ? labels.rejecting : labels.reject}
        </button>
      </div>
    </>
  );
}
