import {
  type ChallengeItem,
  challengeCertificatePath,
  FUNDRAISING_HOSTS,
  formatPeriod,
  LOGIN_PATH,
} from "@charity-steps/shared-types";
import { ArrowLeft, Download, Share2, Trophy } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useParams } from "react-router-dom";
import { FormProblem } from "../../components/form-problem";
import { LoadingSpinner } from "../../components/loading-spinner";
import { NotFoundPage } from "../../components/not-found-page";
import { Page } from "../../components/page";
import { serverMessage } from "../../lib/api-client";
import { navigateTo } from "../../lib/browser-location";
import { formatSteps } from "../../lib/format";
import { paths } from "../../lib/paths";
import { forgetReturnTo, rememberReturnTo } from "../../lib/return-to";
import { waitingStepsText } from "../../lib/step-progress";
import { toast } from "../../lib/toast-store";
import { useAuth } from "../../lib/use-auth";
import { useLondonDay } from "../../lib/use-london-day";
import { ChallengeProgressBar, challengeGoalText, challengePaceText } from "./challenge-card";
import {
  useChallenge,
  useChallengeLeaderboard,
  useFundraising,
  useJoinChallenge,
  usePublicChallenge,
} from "./use-challenges";

/** `/challenges/{id}`: a challenge with its leaderboard for walkers; a public one's totals for anyone. */
export function ChallengePage() {
  const { id = "" } = useParams();
  const { isLoading, isAuthenticated } = useAuth();
  useEffect(() => {
    if (isAuthenticated) forgetReturnTo();
  }, [isAuthenticated]);
  if (isLoading) return <LoadingSpinner />;
  return isAuthenticated ? <WalkerChallenge id={id} /> : <PublicChallengePage id={id} />;
}

function BackToChallenges() {
  return (
    <Link to={paths.challenges} className="link inline-flex items-center gap-1">
      <ArrowLeft aria-hidden="true" className="size-4" />
      All challenges
    </Link>
  );
}

function WalkerChallenge({ id }: { id: string }) {
  const challenge = useChallenge(id);
  const today = useLondonDay();
  const join = useJoinChallenge();
  if (challenge.isPending) return <LoadingSpinner />;
  const item = challenge.data;
  if (!item) return <NotFoundPage />;
  const ended = today > item.endsOn;
  const toggle = () =>
    join.mutate(
      { id, leave: item.joined },
      {
        onSuccess: () => toast({ title: item.joined ? "You left the challenge" : `You joined ${item.name}` }),
        onError: (error) =>
          toast({
            title: "Not done",
            description: serverMessage(error, "Please try again."),
            variant: "destructive",
          }),
      },
    );
  return (
    <Page title={item.name} back={<BackToChallenges />}>
      <section className="card p-4" aria-label="The challenge">
        <p className="font-medium">
          {challengeGoalText(item)}, {formatPeriod(item.startsOn, item.endsOn)}
        </p>
        {item.charityName && <p className="text-sm text-muted">Walking for {item.charityName}</p>}
        {item.description && (
          <p className="mt-2 whitespace-pre-line [overflow-wrap:anywhere]">{item.description}</p>
        )}
        <ChallengeProgressBar challenge={item} />
        {item.joined && (
          <p className="mt-1 text-sm font-medium" data-testid="challenge-pace">
            {challengePaceText(item, today)}
          </p>
        )}
        {!ended && (
          <button
            type="button"
            className={item.joined ? "btn-secondary mt-3" : "btn-primary mt-3"}
            disabled={join.isPending}
            onClick={toggle}
          >
            {item.joined ? "Leave" : "Join"}
          </button>
        )}
      </section>
      {item.completedAt !== null && <Certificate item={item} />}
      {item.joined && !ended && <FundraisingForm id={id} />}
      <Leaderboard id={id} kind={item.kind} />
    </Page>
  );
}

/** The completed challenge's certificate: downloaded, or shared as an image where the browser can. */
function Certificate({ item }: { item: ChallengeItem }) {
  const url = challengeCertificatePath(item.id);
  const share = async () => {
    try {
      const blob = await (await fetch(url, { credentials: "same-origin" })).blob();
      const file = new File([blob], "certificate.png", { type: "image/png" });
      const data = { files: [file], title: item.name, text: `I completed ${item.name} with Charity Steps!` };
      if (typeof navigator.share === "function" && (navigator.canShare?.(data) ?? false)) {
        await navigator.share(data);
      } else {
        toast({ title: "Sharing is not available here", description: "Download the certificate instead." });
      }
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return;
      toast({ title: "The certificate could not be shared", variant: "destructive" });
    }
  };
  return (
    <section className="card mt-4 p-4" aria-labelledby="certificate-title">
      <h2 id="certificate-title" className="flex items-center gap-2 text-lg font-semibold">
        <Trophy aria-hidden="true" className="size-5 text-brand-strong" />
        Challenge completed!
      </h2>
      <p className="text-muted">Your certificate is ready.</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <a className="btn-primary" href={url} download>
          <Download aria-hidden="true" className="size-4" /> Download
        </a>
        <button type="button" className="btn-secondary" onClick={share}>
          <Share2 aria-hidden="true" className="size-4" /> Share
        </button>
      </div>
    </section>
  );
}

/** The walker's fundraising page, shown on their row of the leaderboard. The app never handles money. */
function FundraisingForm({ id }: { id: string }) {
  const fundraising = useFundraising();
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get("url") ?? "").trim();
    // An address typed as people say it ("justgiving.com/page/ada") is meant over https.
    const url = typed === "" || /^[a-z][a-z0-9+.-]*:/i.test(typed) ? typed : `https://${typed}`;
    setProblem(null);
    fundraising.mutate(
      { id, url: url === "" ? null : url },
      {
        onSuccess: () => toast({ title: url === "" ? "Fundraising page removed" : "Fundraising page added" }),
        onError: (error) => setProblem(serverMessage(error, "It could not be saved. Please try again.")),
      },
    );
  };
  return (
    <form className="card mt-4 space-y-2 p-4" onSubmit={submit} aria-labelledby="fundraising-title">
      <h2 id="fundraising-title" className="text-lg font-semibold">
        Your fundraising page
      </h2>
      <p className="text-sm text-muted">
        Raising money? Add your page on {FUNDRAISING_HOSTS.slice(0, 3).join(", ")} or your charity's own site.
        Leave it empty to remove it.
      </p>
      <label className="block text-sm font-medium">
        Address
        <input
          name="url"
          type="text"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          className="field"
          placeholder="https://www.justgiving.com/…"
        />
      </label>
      <FormProblem id="fundraising-problem" problem={problem} />
      <button type="submit" className="btn-secondary" disabled={fundraising.isPending}>
        Save
      </button>
    </form>
  );
}

function Leaderboard({ id, kind }: { id: string; kind: ChallengeItem["kind"] }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors.at(-1) ?? null;
  const board = useChallengeLeaderboard(id, cursor, true);
  const unit = kind === "daily_target" ? "days" : "steps";
  return (
    <section className="card mt-4 p-4" aria-labelledby="challenge-board-title">
      <h2 id="challenge-board-title" className="text-lg font-semibold">
        Leaderboard
      </h2>
      {board.isPending ? (
        <LoadingSpinner />
      ) : (board.data?.items.length ?? 0) === 0 ? (
        <p className="text-muted">Nobody has joined yet.</p>
      ) : (
        <ol className="mt-2 divide-y divide-line" aria-label="Walkers in the challenge">
          {board.data?.items.map((row) => (
            <li
              key={`${row.rank}-${row.displayName}`}
              className="flex items-baseline gap-3 py-2"
              data-testid="challenge-row"
            >
              <span className="w-8 shrink-0 text-right font-semibold">{row.rank}</span>
              {/* Name and steps share the line while they fit; a long note of waiting steps moves
                  the steps under the name rather than squeezing it. */}
              <span className="flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3">
                <span className="min-w-0 flex-[1_1_8rem] [overflow-wrap:anywhere]">
                  {row.displayName}
                  {row.fundraisingUrl && (
                    <a
                      className="link flex min-h-11 w-fit items-center text-sm"
                      href={row.fundraisingUrl}
                      target="_blank"
                      rel="noopener noreferrer nofollow"
                    >
                      Fundraising page
                    </a>
                  )}
                </span>
                <span className="ml-auto text-right">
                  {formatSteps(row.progress.value)} {unit}
                  {row.pendingSteps !== undefined && (
                    <span className="block text-xs text-muted">{waitingStepsText(row.pendingSteps)}</span>
                  )}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
      <div className="mt-2 flex gap-3">
        {cursors.length > 1 && (
          <button type="button" className="btn-secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous
          </button>
        )}
        {board.data?.nextCursor && (
          <button
            type="button"
            className="btn-secondary"
            onClick={() => setCursors([...cursors, board.data?.nextCursor ?? null])}
          >
            Next
          </button>
        )}
      </div>
    </section>
  );
}

/** Signed out: a public challenge's totals, and Join through sign-in. */
function PublicChallengePage({ id }: { id: string }) {
  const challenge = usePublicChallenge(id, true);
  if (challenge.isPending) return <LoadingSpinner />;
  const item = challenge.data;
  if (!item) return <NotFoundPage />;
  const join = () => {
    rememberReturnTo(`/challenges/${id}`);
    navigateTo(LOGIN_PATH);
  };
  return (
    <Page title={item.name}>
      <section className="card p-4" aria-label="The challenge">
        <p className="font-medium">
          {challengeGoalText({ ...item, dailyTarget: null })}, {formatPeriod(item.startsOn, item.endsOn)}
        </p>
        {item.charityName && <p className="text-sm text-muted">Walking for {item.charityName}</p>}
        {item.description && (
          <p className="mt-2 whitespace-pre-line [overflow-wrap:anywhere]">{item.description}</p>
        )}
        <dl className="mt-3 grid grid-cols-2 gap-3">
          <div>
            <dt className="text-sm text-muted">Walkers</dt>
            <dd className="text-2xl font-bold" data-testid="public-walkers">
              {formatSteps(item.walkers)}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted">Steps so far</dt>
            <dd className="text-2xl font-bold" data-testid="public-steps">
              {formatSteps(item.steps)}
            </dd>
          </div>
        </dl>
        <button type="button" className="btn-primary mt-3" onClick={join}>
          Join
        </button>
        <p className="mt-2 text-sm text-muted">You sign in (or sign up, free) first, and come back here.</p>
      </section>
    </Page>
  );
}
