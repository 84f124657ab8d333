import {
  DRAW_CLAIM_MESSAGES,
  drawResultsPagePath,
  drawResultsPath,
  formatMonth,
  isPlainText,
  londonDateTime,
  type MyPrize,
  type MyPrizes,
  PRIZE_COUNTY_MAX_CHARS,
  PRIZE_DELIVERY_ADDRESS_MAX_CHARS,
  PRIZE_PUBLIC_NAME_MAX_CHARS,
  type PrizeClaimRequest,
  prizeClaimPath,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useParams } from "react-router-dom";
import { CharacterCount, overLimit, tooLongMessage } from "../../components/character-count";
import { FormProblem } from "../../components/form-problem";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { paths } from "../../lib/paths";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { daysLeftText, PRIZE_STATUS_LABEL } from "./prize-format";
import { MY_PRIZES_KEY, myDrawKey, useMyPrizes } from "./prize-queries";
import "./prizes.css";

const backLink = (
  <Link to={paths.prizeDraw} className="link text-sm">
    Back to the prize draw
  </Link>
);

/** `/prizes/:id/claim`: a winner gives the name to publish, their county and where to send the prize. */
export function PrizeClaimPage() {
  const { id = "" } = useParams();
  const prizes = useMyPrizes();
  // True once a claim sent from this page succeeded: the confirmation that replaces the form then
  // takes the focus the form had.
  const [justClaimed, setJustClaimed] = useState(false);
  if (prizes.isLoading) return <LoadingSpinner />;
  if (!prizes.data) {
    return (
      <Page title="Claim your prize" back={backLink}>
        <p className="card p-4" role="alert">
          {serverMessage(prizes.error, "Your prizes could not be loaded; please try again later.")}
        </p>
      </Page>
    );
  }
  const prize = prizes.data.prizes.find((candidate) => candidate.id === id);
  if (!prize) {
    return (
      <Page title="Claim your prize" back={backLink}>
        <p className="card p-4" role="alert">
          {DRAW_CLAIM_MESSAGES.notYours}
        </p>
      </Page>
    );
  }
  return (
    <Page
      title={
        prize.status === "awaiting_claim" ? `Claim your ${prize.tier} prize` : `Your ${prize.tier} prize`
      }
      back={backLink}
    >
      <p className="mb-4 text-muted">
        <bdi>{prize.description}</bdi> Won with ticket <code className="prize-hex">{prize.ticket}</code> in
        the {formatMonth(prize.month)} draw.
      </p>
      {prize.status === "awaiting_claim" ? (
        <ClaimForm prize={prize} onClaimed={() => setJustClaimed(true)} />
      ) : (
        <ClaimStatus prize={prize} focus={justClaimed} />
      )}
    </Page>
  );
}

/** Where a prize stands once it can no longer be claimed here. */
function ClaimStatus({ prize, focus }: { prize: MyPrize; focus: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form the walker was in has just gone: move them to what replaced it.
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <section className="card space-y-2 p-4" aria-labelledby="claim-status-heading">
      <h2 id="claim-status-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        <span className="prize-status" data-testid="claim-status">
          {PRIZE_STATUS_LABEL[prize.status]}
        </span>
      </h2>
      {prize.status === "claimed" && (
        <>
          <p>
            {prize.publicName}, {prize.county} will be published with the results. Your address is never
            published: it is used only to send your prize.
          </p>
          <p>
            <Link to={drawResultsPagePath(prize.month)} className="link">
              See the {formatMonth(prize.month)} results
            </Link>
          </p>
        </>
      )}
      {prize.status === "expired" && <p>{DRAW_CLAIM_MESSAGES.expired}</p>}
      {prize.status === "redrawn" && <p>{DRAW_CLAIM_MESSAGES.redrawn}</p>}
    </section>
  );
}

interface FormValues {
  over18: boolean;
  publicName: string;
  county: string;
  deliveryAddress: string;
}

type Field = keyof FormValues;

function ClaimForm({ prize, onClaimed }: { prize: MyPrize; onClaimed: () => void }) {
  const queryClient = useQueryClient();
  const ids = {
    title: useId(),
    over18: useId(),
    publicName: useId(),
    county: useId(),
    deliveryAddress: useId(),
    deadline: useId(),
    privacy: useId(),
    problem: useId(),
  };
  const [problem, setProblem] = useState<{ text: string; field: Field | null } | null>(null);
  const { register, handleSubmit, setFocus, watch } = useForm<FormValues>({
    defaultValues: { over18: false, publicName: "", county: "", deliveryAddress: "" },
  });

  const claim = useMutation({
    mutationFn: async (body: PrizeClaimRequest) =>
      (await (await apiRequest("POST", prizeClaimPath(prize.id), body)).json()) as MyPrize,
    onSuccess: async (claimed) => {
      setProblem(null);
      toast({
        title: "Prize claimed",
        description: `Your ${claimed.tier} prize will be sent to the address you gave.`,
      });
      onClaimed();
      queryClient.setQueryData<MyPrizes | null>(MY_PRIZES_KEY, (old) =>
        old ? { prizes: old.prizes.map((p) => (p.id === claimed.id ? claimed : p)) } : old,
      );
      await Promise.all([
        // Read once more through the service worker, so that its copy for a visit with no signal
        // shows the prize as claimed (the claim's form is gone, so nothing typed is overwritten).
        queryClient.invalidateQueries({ queryKey: MY_PRIZES_KEY }),
        queryClient.invalidateQueries({ queryKey: myDrawKey(prize.month) }),
        queryClient.invalidateQueries({ queryKey: [drawResultsPath(prize.month)] }),
      ]);
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      setProblem({
        text: serverMessage(error, "Your claim could not be sent. Check your connection and try again."),
        field: null,
      });
      // A 409 means the prize changed (claimed elsewhere, expired, redrawn): the prize page shows
      // it as it now is the next time it opens, while this message stays here to be read.
      void queryClient.invalidateQueries({ queryKey: MY_PRIZES_KEY, refetchType: "none" });
    },
  });

  const refuse = (field: Field, text: string) => {
    setProblem({ field, text });
    setFocus(field);
  };

  const submit = handleSubmit((values) => {
    const publicName = values.publicName.trim();
    const county = values.county.trim();
    const deliveryAddress = values.deliveryAddress.trim();
    if (!values.over18) return refuse("over18", "Confirm that you are 18 or over: prizes go only to adults.");
    if (!publicName) return refuse("publicName", DRAW_CLAIM_MESSAGES.blankField("The name to publish"));
    if (!isPlainText(publicName)) return refuse("publicName", "The name to publish must be plain text.");
    if (overLimit(publicName, PRIZE_PUBLIC_NAME_MAX_CHARS)) {
      return refuse("publicName", tooLongMessage("The name to publish", PRIZE_PUBLIC_NAME_MAX_CHARS));
    }
    if (!county) return refuse("county", DRAW_CLAIM_MESSAGES.blankField("The county"));
    if (!isPlainText(county)) return refuse("county", "The county must be plain text.");
    if (overLimit(county, PRIZE_COUNTY_MAX_CHARS)) {
      return refuse("county", tooLongMessage("The county", PRIZE_COUNTY_MAX_CHARS));
    }
    if (!deliveryAddress) return refuse("deliveryAddress", DRAW_CLAIM_MESSAGES.blankField("The address"));
    if (!isPlainText(deliveryAddress, { lineBreaks: true })) {
      return refuse("deliveryAddress", "The address must be plain text.");
    }
    if (overLimit(deliveryAddress, PRIZE_DELIVERY_ADDRESS_MAX_CHARS)) {
      return refuse("deliveryAddress", tooLongMessage("The address", PRIZE_DELIVERY_ADDRESS_MAX_CHARS));
    }
    setProblem(null);
    claim.mutate({ over18: true, publicName, county, deliveryAddress });
  });

  const fieldProps = (field: Field, describedBy: string[] = []) => {
    const invalid = problem?.field === field;
    const described = [...describedBy, ...(invalid ? [ids.problem] : [])].join(" ");
    return {
      id: ids[field],
      "aria-invalid": invalid || undefined,
      "aria-describedby": described || undefined,
    };
  };

  return (
    <form onSubmit={submit} noValidate className="card space-y-4 p-4" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="text-lg font-semibold">
        Your claim
      </h2>
      <p id={ids.deadline} data-testid="claim-deadline">
        <strong>Claim by {londonDateTime(prize.claimBy)} (London time)</strong>: {daysLeftText(prize.claimBy)}
        .
      </p>
      <p id={ids.privacy} className="text-sm text-muted">
        Your name and county, as you write them here, are published with the draw's results. Your address is
        never published: it is used only to send your prize.
      </p>
      <label htmlFor={ids.over18} className="flex items-start gap-2 font-medium">
        <input
          type="checkbox"
          className="mt-1 size-4"
          aria-required="true"
          {...fieldProps("over18")}
          {...register("over18")}
        />
        I am 18 or over
      </label>
      <div>
        <label htmlFor={ids.publicName} className="block text-sm font-medium">
          Name to publish (e.g. J. Smith)
          <input
            className="field"
            autoComplete="off"
            required
            {...fieldProps("publicName", [ids.privacy, `${ids.publicName}-count`])}
            {...register("publicName")}
          />
        </label>
        <CharacterCount
          id={`${ids.publicName}-count`}
          label="The name to publish"
          text={watch("publicName").trim()}
          max={PRIZE_PUBLIC_NAME_MAX_CHARS}
        />
      </div>
      <div>
        <label htmlFor={ids.county} className="block text-sm font-medium">
          County
          <input
            className="field"
            autoComplete="address-level1"
            required
            {...fieldProps("county", [ids.privacy, `${ids.county}-count`])}
            {...register("county")}
          />
        </label>
        <CharacterCount
          id={`${ids.county}-count`}
          label="The county"
          text={watch("county").trim()}
          max={PRIZE_COUNTY_MAX_CHARS}
        />
      </div>
      <div>
        <label htmlFor={ids.deliveryAddress} className="block text-sm font-medium">
          Where should we send your prize?
          <textarea
            className="field"
            rows={4}
            autoComplete="street-address"
            required
            {...fieldProps("deliveryAddress", [ids.privacy, `${ids.deliveryAddress}-count`])}
            {...register("deliveryAddress")}
          />
        </label>
        <CharacterCount
          id={`${ids.deliveryAddress}-count`}
          label="The address"
          text={watch("deliveryAddress").trim()}
          max={PRIZE_DELIVERY_ADDRESS_MAX_CHARS}
        />
      </div>
      <FormProblem id={ids.problem} problem={problem?.text ?? null} />
      <button type="submit" className="btn-primary" disabled={claim.isPending}>
        {claim.isPending ? "Sending your claim…" : "Claim prize"}
      </button>
    </form>
  );
}
