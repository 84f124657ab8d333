import {
  countOf,
  DRAW_PRIZES_MAX,
  DRAW_RUN_MESSAGES,
  DRAW_TIER_DESCRIPTION_MAX_CHARS,
  DRAW_TIER_NAME_MAX_CHARS,
  DRAW_TIERS_MAX,
  type DrawTier,
  type DrawTiersRequest,
  formatMonth,
  formatNumber,
  type OperatorDraw,
  operatorDrawTiersPath,
  repeatsTierName,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { type Control, useFieldArray, useForm, useWatch } from "react-hook-form";
import { CharacterCount, overLimit, tooLongMessage } from "../../components/character-count";
import { FormProblem } from "../../components/form-problem";
import { ApiError, apiRequest, serverMessage } from "../../lib/api-client";
import { DRAW_LIST_KEY } from "../../lib/draw-list";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { operatorDrawQuery } from "./operator-draw-queries";
import { AUDIT_LOG_KEY } from "./operator-queries";

interface FormValues {
  tiers: DrawTier[];
}

const blankTier = (): DrawTier => ({ name: "", prizes: 1, description: "" });

/** What is wrong with the tiers before asking the server, in the server's own words where it has them. */
function tiersProblem(tiers: DrawTier[]): string | null {
  if (tiers.some((tier) => !tier.name.trim())) return "Each tier needs a name.";
  if (tiers.some((tier) => overLimit(tier.name, DRAW_TIER_NAME_MAX_CHARS))) {
    return tooLongMessage("A tier's name", DRAW_TIER_NAME_MAX_CHARS);
  }
  if (tiers.some((tier) => overLimit(tier.description, DRAW_TIER_DESCRIPTION_MAX_CHARS))) {
    return tooLongMessage("A tier's description", DRAW_TIER_DESCRIPTION_MAX_CHARS);
  }
  if (repeatsTierName(tiers.map((tier) => tier.name))) return DRAW_RUN_MESSAGES.tierNamesRepeat;
  if (
    tiers.some((tier) => !Number.isInteger(tier.prizes) || tier.prizes < 0 || tier.prizes > DRAW_PRIZES_MAX)
  ) {
    return `Each tier's number of prizes is a whole number from 0 to ${DRAW_PRIZES_MAX}.`;
  }
  if (tiers.reduce((sum, tier) => sum + tier.prizes, 0) > DRAW_PRIZES_MAX)
    return DRAW_RUN_MESSAGES.tooManyPrizes;
  return null;
}

/** Where focus goes once the tiers have re-rendered after a button moved, added or removed one. */
type PendingFocus = { kind: "name"; index: number } | { kind: "move"; index: number; up: boolean } | null;

/**
 * The month's prize tiers, in the order they are drawn, while they may still change (before the
 * close). Saving replaces them whole; a refusal is shown as the server words it. `onClosed` is
 * told when the server says the draw has closed meanwhile, since this form then goes away.
 */
export function DrawTiersEditor({
  month,
  tiers,
  onClosed,
}: {
  month: string;
  tiers: DrawTier[];
  onClosed: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const ids = { title: useId(), problem: useId() };
  const fieldId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const pendingFocus = useRef<PendingFocus>(null);
  const { control, register, handleSubmit, reset, setFocus, formState } = useForm<FormValues>({
    defaultValues: { tiers: tiers.map((tier) => ({ ...tier })) },
  });
  const { fields, append, remove, move } = useFieldArray({ control, name: "tiers" });

  // Runs after every render: a reorder or removal re-renders the tiers, and only then is the
  // element that should take the focus in its place.
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    if (target.kind === "name") {
      setFocus(`tiers.${target.index}.name`);
      return;
    }
    const form = formRef.current;
    const button =
      form?.querySelector<HTMLButtonElement>(
        `[data-move="${target.up ? "up" : "down"}-${target.index}"]:enabled`,
      ) ??
      form?.querySelector<HTMLButtonElement>(
        `[data-move="${target.up ? "down" : "up"}-${target.index}"]:enabled`,
      );
    button?.focus();
  });

  const save = useMutation({
    mutationFn: async (body: DrawTiersRequest) =>
      (await (await apiRequest("PUT", operatorDrawTiersPath(month), body)).json()) as OperatorDraw,
    onSuccess: async (draw) => {
      setProblem(null);
      queryClient.setQueryData(operatorDrawQuery(month).queryKey, draw);
      reset({ tiers: draw.results.tiers.map((tier) => ({ ...tier })) });
      const prizes = draw.results.tiers.reduce((sum, tier) => sum + tier.prizes, 0);
      toast({
        title: "Tiers saved",
        description: `${formatMonth(month)}: ${countOf(draw.results.tiers.length, "tier")}, ${countOf(prizes, "prize")}.`,
      });
      await queryClient.invalidateQueries({ queryKey: AUDIT_LOG_KEY });
    },
    onError: async (error) => {
      if (handleUnauthorizedError(error)) return;
      const message = serverMessage(
        error,
        "The tiers could not be saved. Check your connection and try again.",
      );
      if (error instanceof ApiError && error.status === 409) {
        onClosed(message);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: operatorDrawQuery(month).queryKey }),
          queryClient.invalidateQueries({ queryKey: DRAW_LIST_KEY }),
        ]);
        return;
      }
      setProblem(message);
    },
  });

  const submit = handleSubmit((values) => {
    const cleaned = values.tiers.map((tier) => ({
      name: tier.name.trim(),
      prizes: tier.prizes,
      description: tier.description.trim(),
    }));
    const wrong = tiersProblem(cleaned);
    if (wrong) return setProblem(wrong);
    save.mutate({ tiers: cleaned });
  });

  const describedBy = problem ? ids.problem : undefined;
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-3" aria-labelledby={ids.title}>
      <h3 id={ids.title} className="font-semibold">
        Prize tiers
      </h3>
      <p className="text-sm text-muted">
        Drawn in this order, top first. They can be changed until the draw closes, then never again.
      </p>
      <ol className="space-y-3">
        {fields.map((field, index) => {
          const name = `${fieldId}-${index}`;
          return (
            <li key={field.id}>
              <fieldset className="draw-tier">
                <legend className="px-1 text-sm font-semibold">Tier {index + 1}</legend>
                <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
                  <div>
                    <label htmlFor={`${name}-name`} className="block text-sm font-medium">
                      Name
                      <input
                        id={`${name}-name`}
                        className="field"
                        autoComplete="off"
                        aria-describedby={[`${name}-name-count`, describedBy].join(" ").trim()}
                        {...register(`tiers.${index}.name`, { onChange: () => setProblem(null) })}
                      />
                    </label>
                    <TierTextCount
                      control={control}
                      id={`${name}-name-count`}
                      label="The name"
                      path={`tiers.${index}.name`}
                      max={DRAW_TIER_NAME_MAX_CHARS}
                    />
                  </div>
                  <label htmlFor={`${name}-prizes`} className="block text-sm font-medium">
                    Number of prizes
                    <input
                      id={`${name}-prizes`}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={DRAW_PRIZES_MAX}
                      step={1}
                      className="field"
                      aria-describedby={describedBy}
                      {...register(`tiers.${index}.prizes`, {
                        valueAsNumber: true,
                        onChange: () => setProblem(null),
                      })}
                    />
                  </label>
                </div>
                <div className="mt-3">
                  <label htmlFor={`${name}-description`} className="block text-sm font-medium">
                    Description <span className="font-normal text-muted">(as the prize page shows it)</span>
                    <textarea
                      id={`${name}-description`}
                      rows={2}
                      className="field"
                      aria-describedby={[`${name}-description-count`, describedBy].join(" ").trim()}
                      {...register(`tiers.${index}.description`, { onChange: () => setProblem(null) })}
                    />
                  </label>
                  <TierTextCount
                    control={control}
                    id={`${name}-description-count`}
                    label="The description"
                    path={`tiers.${index}.description`}
                    max={DRAW_TIER_DESCRIPTION_MAX_CHARS}
                  />
                </div>
                <div className="mt-3 flex flex-wrap gap-2">
                  <button
                    type="button"
                    className="btn-secondary draw-small-button"
                    data-move={`up-${index}`}
                    aria-label={`Move tier ${index + 1} up`}
                    disabled={index === 0}
                    onClick={() => {
                      move(index, index - 1);
                      pendingFocus.current = { kind: "move", index: index - 1, up: true };
                    }}
                  >
                    <ArrowUp aria-hidden="true" className="size-4" />
                    Up
                  </button>
                  <button
                    type="button"
                    className="btn-secondary draw-small-button"
                    data-move={`down-${index}`}
                    aria-label={`Move tier ${index + 1} down`}
                    disabled={index === fields.length - 1}
                    onClick={() => {
                      move(index, index + 1);
                      pendingFocus.current = { kind: "move", index: index + 1, up: false };
                    }}
                  >
                    <ArrowDown aria-hidden="true" className="size-4" />
                    Down
                  </button>
                  <button
                    type="button"
                    className="btn-secondary draw-small-button text-destructive"
                    aria-label={`Remove tier ${index + 1}`}
                    disabled={fields.length === 1}
                    onClick={() => {
                      remove(index);
                      setProblem(null);
                      pendingFocus.current = { kind: "name", index: Math.min(index, fields.length - 2) };
                    }}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                    Remove
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <TiersSummary control={control} />
      <FormProblem id={ids.problem} problem={problem} />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-secondary"
          disabled={fields.length >= DRAW_TIERS_MAX}
          onClick={() => {
            setProblem(null);
            append(blankTier());
          }}
        >
          <Plus aria-hidden="true" className="size-4" />
          Add a tier
        </button>
        <button type="submit" className="btn-primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save tiers"}
        </button>
        {formState.isDirty && (
          <button
            type="button"
            className="btn-secondary"
            onClick={() => {
              setProblem(null);
              reset();
              pendingFocus.current = { kind: "name", index: 0 };
            }}
          >
            Undo changes
          </button>
        )}
      </div>
    </form>
  );
}

/** One tier text's count of characters left, watching its own field as the summary below does. */
function TierTextCount({
  control,
  path,
  ...count
}: {
  control: Control<FormValues>;
  path: `tiers.${number}.name` | `tiers.${number}.description`;
  id: string;
  label: string;
  max: number;
}) {
  const text = useWatch({ control, name: path }) ?? "";
  return <CharacterCount {...count} text={text.trim()} />;
}

/** The count of tiers and prizes, watching the form by itself: typing re-renders only this line. */
function TiersSummary({ control }: { control: Control<FormValues> }) {
  const tiers = useWatch({ control, name: "tiers" });
  const total = tiers.reduce((sum, tier) => sum + (Number.isFinite(tier.prizes) ? tier.prizes : 0), 0);
  return (
    <p className="text-sm text-muted">
      {countOf(tiers.length, "tier")}, {countOf(total, "prize")} in all (at most {DRAW_TIERS_MAX} tiers and{" "}
      {formatNumber(DRAW_PRIZES_MAX)} prizes).
    </p>
  );
}
