import {
  formatDay,
  formatNumber,
  formatShortDay,
  operatorReviewPath,
  type ReviewItem,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useId } from "react";
import { londonDayAndTime } from "../../lib/london-time";
import { REVIEW_QUEUE_KEY, reviewQueueQuery } from "./operator-queries";
import { ReviewDecision } from "./review-decision";
import { ReviewSection } from "./review-section";
import "./operator-reviews.css";

const KIND_WORDS = {
  manual: "Added by hand with a photo",
  pace: "Counted by a phone or health app faster than the pace a person walks",
} as const;

/**
 * The review queue: steps that wait for a check before they count for prize entries (a manual entry
 * held when it was sent, or a counter's steps above the pace), oldest first, each with why, its
 * photo and its walker's latest days. Approving makes the steps count for prizes; rejecting keeps
 * them on the walker's totals, never for prizes, and the reason is shown to the walker.
 */
export function OperatorReviews() {
  const queue = useQuery(reviewQueueQuery);
  return (
    <ReviewSection
      icon={ShieldCheck}
      title="Review queue"
      intro="Steps waiting for a quick check before they count toward prize entries, oldest first. They already count on the walker's totals; nothing is deleted."
      query={queue}
      notLoaded="The review queue could not be loaded."
      isEmpty={(data) => data.reviews.length === 0}
      empty="Nothing is waiting for a check."
      list={(data, onDecided) => (
        <>
          <ol className="review-list" aria-label="Entries waiting for a check, oldest first">
            {data.reviews.map((item) => (
              <ReviewCard key={item.id} item={item} onDecided={onDecided} />
            ))}
          </ol>
          {data.truncated && (
            <p className="text-sm text-muted">
              More entries wait than are shown: the oldest come first, the rest follow as these are checked.
            </p>
          )}
        </>
      )}
    />
  );
}

function ReviewCard({ item, onDecided }: { item: ReviewItem; onDecided: () => void }) {
  const ids = { title: useId() };

  return (
    <li className="review-item" aria-labelledby={ids.title}>
      <h3 id={ids.title} className="font-semibold">
        <span className="breaks-anywhere">{item.walkerName}</span>: {formatNumber(item.steps)} steps on{" "}
        {formatDay(item.date)}
      </h3>
      <dl className="review-facts">
        <dt>Walker</dt>
        <dd className="review-email">{item.walkerEmail ?? "no email on file"}</dd>
        <dt>What</dt>
        <dd>{KIND_WORDS[item.kind]}</dd>
        {item.note && (
          <>
            <dt>Note</dt>
            <dd>{item.note}</dd>
          </>
        )}
        <dt>Sent</dt>
        <dd>
          <time dateTime={item.createdAt}>{londonDayAndTime(item.createdAt)}</time>
        </dd>
        <dt>Why it waits</dt>
        <dd>
          <ul className="review-reasons">
            {item.reasons.map((why) => (
              <li key={why.code}>{why.message}</li>
            ))}
          </ul>
        </dd>
      </dl>
      {item.photoUrl && (
        <a href={item.photoUrl} target="_blank" rel="noreferrer" className="review-photo">
          <img src={item.photoUrl} alt={`Proof sent with ${item.walkerName}'s entry`} />
          <span className="text-sm">Open the photo full size</span>
        </a>
      )}
      {item.recentDays.length > 0 && (
        <div>
          <p className="text-sm font-semibold">Latest days (counted steps)</p>
          <ol className="review-days" aria-label={`${item.walkerName}'s latest days, oldest first`}>
            {item.recentDays.map((day) => (
              <li key={day.date} data-flagged={day.date === item.date ? "" : undefined}>
                <span className="text-muted">
                  {formatShortDay(day.date)}
                  {day.date === item.date && " (this entry)"}
                </span>{" "}
                <span className="font-semibold">{formatNumber(day.steps)}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
      <ReviewDecision<ReviewItem>
        path={operatorReviewPath(item.id)}
        told={(decided) => ({
          title: decided.status === "approved" ? "Approved" : "Rejected",
          description:
            decided.status === "approved"
              ? `${formatNumber(decided.steps)} steps of ${decided.walkerName} now count toward prize entries.`
              : `${decided.walkerName} is told the reason; the steps stay on their totals, not for prizes.`,
        })}
        onDecided={onDecided}
        refresh={REVIEW_QUEUE_KEY}
        labels={{ approve: "Approve", approving: "Approving…", reject: "Reject", rejecting: "Rejecting…" }}
      />
    </li>
  );
}
