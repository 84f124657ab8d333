import {
  addDays,
  CHALLENGE_DAILY_TARGET_MAX,
  CHALLENGE_DESCRIPTION_MAX,
  CHALLENGE_MAX_DAYS,
  CHALLENGE_MESSAGES,
  CHALLENGE_NAME_MAX,
  CHALLENGE_STEPS_TARGET_MAX,
  CHARITY_NAMES,
  type ChallengeInput,
  type ChallengeKind,
  londonDay,
} from "@charity-steps/shared-types";
import { type FormEvent, useId, useState } from "react";
import { serverMessage } from "../lib/api-client";
import { CharacterCount, overLimit, tooLongMessage } from "./character-count";
import { FormProblem } from "./form-problem";

const KIND_LABELS: Record<ChallengeKind, string> = {
  total_steps: "Steps in all, each walker",
  daily_target: "Days on a daily target",
  team_total: "Steps together, as a team",
};

/** A name of spaces only passes the browser's check, and is nothing once trimmed. */
export const NAME_NEEDED = "Give the challenge a name.";

/**
 * A challenge's name, charity, kind, target and dates: what an operator sets for everyone and a
 * group's admin for the group. The server checks it all again and says what is wrong.
 */
export function ChallengeForm({
  kinds,
  submitLabel,
  onSubmit,
}: {
  kinds: readonly ChallengeKind[];
  submitLabel: string;
  onSubmit: (input: ChallengeInput) => Promise<unknown>;
}) {
  const id = useId();
  const today = londonDay();
  const [kind, setKind] = useState<ChallengeKind>(kinds[0] ?? "total_steps");
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Kept as typed only for the counts under the two text fields; the form is read when sent.
  const [texts, setTexts] = useState({ name: "", description: "" });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    const text = (name: string) => String(form.get(name) ?? "");
    const charity = text("charityName");
    const input: ChallengeInput = {
      name: text("name").trim(),
      description: text("description").trim(),
      charityName: charity === "" ? null : (charity as ChallengeInput["charityName"]),
      kind,
      target: Number(text("target")),
      dailyTarget: kind === "daily_target" ? Number(text("dailyTarget")) : null,
      startsOn: text("startsOn"),
      endsOn: text("endsOn"),
    };
    // Said here before anything is sent, in the form's words (the browser checks the rest).
    if (input.name === "") return setProblem(NAME_NEEDED);
    if (overLimit(input.name, CHALLENGE_NAME_MAX))
      return setProblem(tooLongMessage("The name", CHALLENGE_NAME_MAX));
    if (overLimit(input.description, CHALLENGE_DESCRIPTION_MAX)) {
      return setProblem(tooLongMessage("The description", CHALLENGE_DESCRIPTION_MAX));
    }
    if (input.endsOn < input.startsOn) return setProblem(CHALLENGE_MESSAGES.endsBeforeStart);
    setPending(true);
    setProblem(null);
    try {
      await onSubmit(input);
      element.reset();
      setTexts({ name: "", description: "" });
    } catch (error) {
      setProblem(serverMessage(error, "The challenge could not be saved. Please try again."));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="space-y-3" onSubmit={submit} aria-describedby={`${id}-problem`}>
      <div>
        <label className="block">
          <span className="text-sm font-medium">Name</span>
          <input
            name="name"
            required
            aria-describedby={`${id}-name-count`}
            onChange={(event) => setTexts({ ...texts, name: event.target.value })}
            className="field"
          />
        </label>
        <CharacterCount
          id={`${id}-name-count`}
          label="The name"
          text={texts.name.trim()}
          max={CHALLENGE_NAME_MAX}
        />
      </div>
      <div>
        <label className="block">
          <span className="text-sm font-medium">Description</span>
          <textarea
            name="description"
            rows={3}
            aria-describedby={`${id}-description-count`}
            onChange={(event) => setTexts({ ...texts, description: event.target.value })}
            className="field"
          />
        </label>
        <CharacterCount
          id={`${id}-description-count`}
          label="The description"
          text={texts.description.trim()}
          max={CHALLENGE_DESCRIPTION_MAX}
        />
      </div>
      <label className="block">
        <span className="text-sm font-medium">Charity</span>
        <select name="charityName" className="field" defaultValue="">
          <option value="">None</option>
          {CHARITY_NAMES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="block">
        <span className="text-sm font-medium">Kind</span>
        <select
          name="kind"
          className="field"
          value={kind}
          onChange={(event) => setKind(event.target.value as ChallengeKind)}
        >
          {kinds.map((each) => (
            <option key={each} value={each}>
              {KIND_LABELS[each]}
            </option>
          ))}
        </select>
      </label>
      {kind === "daily_target" && (
        <label className="block">
          <span className="text-sm font-medium">Steps a day</span>
          <input
            name="dailyTarget"
            type="number"
            min={1}
            max={CHALLENGE_DAILY_TARGET_MAX}
            required
            defaultValue={10_000}
            className="field"
          />
        </label>
      )}
      <label className="block">
        <span className="text-sm font-medium">
          {kind === "daily_target" ? "Target (days)" : "Target (steps)"}
        </span>
        <input
          name="target"
          type="number"
          min={1}
          max={kind === "daily_target" ? CHALLENGE_MAX_DAYS : CHALLENGE_STEPS_TARGET_MAX}
          required
          defaultValue={kind === "daily_target" ? 20 : 250_000}
          key={kind}
          className="field"
        />
      </label>
      <div className="fit-grid gap-3 [--fit-min:10rem]">
        <label className="block">
          <span className="text-sm font-medium">Starts on</span>
          <input name="startsOn" type="date" required min={today} defaultValue={today} className="field" />
        </label>
        <label className="block">
          <span className="text-sm font-medium">Ends on</span>
          <input
            name="endsOn"
            type="date"
            required
            min={today}
            defaultValue={addDays(today, 29)}
            className="field"
          />
        </label>
      </div>
      <p className="text-sm text-muted">
        At most {CHALLENGE_MAX_DAYS} days, counting both ends, in London time.
      </p>
      <FormProblem id={`${id}-problem`} problem={problem} />
      <button type="submit" className="btn-primary" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}
