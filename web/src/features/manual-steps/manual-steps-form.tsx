import {
  addDays,
  FAIR_PLAY_MESSAGES,
  IDEMPOTENCY_KEY_HEADER,
  londonDay,
  MANUAL_NOTE_MAX_CHARS,
  MANUAL_SOURCE,
  type ManualEntryResponse,
  STEP_HISTORY_DAYS,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { CharacterCount } from "../../components/character-count";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { refreshStepQueries } from "../../lib/step-queries";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { useLondonDay } from "../../lib/use-london-day";
import { useOnline } from "../../lib/use-online";
import { MANUAL_ENTRIES_KEY } from "./fair-play-words";
import {
  dateProblem,
  type FormProblem,
  noteProblem,
  photoProblem,
  stepsProblem,
  stepsTyped,
} from "./manual-steps-rules";
import { PhotoDropZone } from "./photo-drop-zone";

interface ManualStepsValues {
  steps: string;
  date: string;
  note: string;
}

type Field = "steps" | "date" | "photo" | "note";

/**
 * Steps walked without the phone, with a photo as proof: checked here with the
 * spec's messages, then sent as multipart with an Idempotency-Key, so a retry never adds twice.
 */
export function ManualStepsForm() {
  const queryClient = useQueryClient();
  const online = useOnline();
  const today = useLondonDay();
  const ids = { steps: useId(), date: useId(), note: useId(), problem: useId() };
  const [photo, setPhoto] = useState<File | null>(null);
  // What is wrong, and with which field: said by the toast, and kept beside the form (the toast goes).
  const [problem, setProblem] = useState<(FormProblem & { field: Field }) | null>(null);
  // The problem's toast, put away as soon as the walker changes the form: it no longer holds.
  const problemToast = useRef<{ dismiss: () => void } | null>(null);
  const showProblem = (found: FormProblem, field: Field) => {
    problemToast.current = toast({
      title: found.title,
      description: found.description,
      variant: "destructive",
    });
    setProblem({ ...found, field });
  };
  const clearProblem = useCallback(() => {
    problemToast.current?.dismiss();
    problemToast.current = null;
    setProblem(null);
  }, []);
  const problemFor = (field: Field) =>
    problem?.field === field
      ? { "aria-invalid": true, "aria-describedby": ids.problem }
      : { "aria-invalid": false, "aria-describedby": undefined };
  const { register, handleSubmit, reset, watch, setFocus } = useForm<ManualStepsValues>({
    defaultValues: { steps: "", date: today, note: "" },
  });
  // One key per entry: kept while the same entry is retried, replaced once anything changes.
  const idempotencyKey = useRef<string | null>(null);
  useEffect(() => {
    const subscription = watch(() => {
      idempotencyKey.current = null;
      clearProblem();
    });
    return () => subscription.unsubscribe();
  }, [watch, clearProblem]);

  // Checked as soon as it is picked or dropped, so a wrong file is refused with the spec's toast.
  const pickPhoto = (file: File | null) => {
    const refused = file && photoProblem(file);
    if (refused) return showProblem(refused, "photo");
    idempotencyKey.current = null;
    clearProblem();
    setPhoto(file);
  };

  const mutation = useMutation({
    mutationFn: async ({ values, file, key }: { values: ManualStepsValues; file: File; key: string }) => {
      const form = new FormData();
      form.append("steps", String(stepsTyped(values.steps)));
      form.append("note", values.note.trim());
      form.append("date", values.date);
      form.append("source", MANUAL_SOURCE);
      form.append("manualEntry", "true");
      form.append("justificationImage", file);
      const response = await apiRequest("POST", "/api/steps/add-manual-verified", form, {
        [IDEMPOTENCY_KEY_HEADER]: key,
      });
      return (await response.json()) as ManualEntryResponse;
    },
    onSuccess: async (added) => {
      toast({
        title: "Steps Added Successfully",
        // An entry held for a check is said neutrally: its steps count, its prize entries wait.
        description:
          added?.entry?.status === "pending"
            ? FAIR_PLAY_MESSAGES.pending
            : "Your steps have been added and automatically verified!",
      });
      idempotencyKey.current = null;
      reset({ steps: "", date: londonDay(), note: "" });
      setPhoto(null);
      await Promise.all([
        refreshStepQueries(queryClient),
        queryClient.invalidateQueries({ queryKey: MANUAL_ENTRIES_KEY }),
      ]);
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      toast({
        title: "Error Adding Steps",
        description: serverMessage(error, "Failed to add steps"),
        variant: "destructive",
      });
    },
  });

  const submit = handleSubmit((values) => {
    const found: [FormProblem | null, Field][] = [
      [stepsProblem(values.steps), "steps"],
      [dateProblem(values.date, londonDay()), "date"],
      [photoProblem(photo), "photo"],
      [noteProblem(values.note), "note"],
    ];
    const [refused, field] = found.find(([each]) => each !== null) ?? [null, "steps"];
    if (refused) {
      showProblem(refused, field);
      // Focus goes to the field to fix (the photo's picker would open a file dialog: not that one).
      if (field !== "photo") setFocus(field);
      return;
    }
    idempotencyKey.current ??= crypto.randomUUID();
    mutation.mutate({ values, file: photo as File, key: idempotencyKey.current });
  });

  return (
    <form
      id="add-steps"
      tabIndex={-1}
      onSubmit={submit}
      noValidate
      className="card space-y-4 p-4"
      aria-labelledby={`${ids.steps}-title`}
    >
      <div>
        <h2 id={`${ids.steps}-title`} className="text-lg font-semibold">
          Add steps by hand
        </h2>
        <p className="text-sm text-muted">Walked without your phone? Add the steps with a photo as proof.</p>
      </div>
      <div className="fit-grid gap-3 [--fit-min:9rem]">
        <label htmlFor={ids.steps} className="block text-sm font-medium">
          Steps
          <input
            id={ids.steps}
            inputMode="numeric"
            autoComplete="off"
            placeholder="e.g. 5000"
            className="field"
            {...problemFor("steps")}
            {...register("steps")}
          />
        </label>
        <label htmlFor={ids.date} className="block text-sm font-medium">
          Date
          <input
            id={ids.date}
            type="date"
            min={addDays(today, -STEP_HISTORY_DAYS)}
            max={today}
            className="field"
            {...problemFor("date")}
            {...register("date")}
          />
        </label>
      </div>
      <div>
        <label htmlFor={ids.note} className="block text-sm font-medium">
          Note <span className="font-normal text-muted">(optional)</span>
          <textarea
            id={ids.note}
            rows={2}
            className="field"
            aria-invalid={problem?.field === "note"}
            aria-describedby={
              problem?.field === "note" ? `${ids.note}-count ${ids.problem}` : `${ids.note}-count`
            }
            {...register("note")}
          />
        </label>
        <CharacterCount
          id={`${ids.note}-count`}
          label="The note"
          text={watch("note").trim()}
          max={MANUAL_NOTE_MAX_CHARS}
        />
      </div>
      <PhotoDropZone
        photo={photo}
        onPick={pickPhoto}
        problemId={problem?.field === "photo" ? ids.problem : undefined}
      />
      {problem && (
        <p
          id={ids.problem}
          className="text-sm font-medium text-destructive"
          data-testid="manual-steps-problem"
        >
          {problem.title}: {problem.description}
        </p>
      )}
      {!online && (
        <p className="text-sm text-muted" role="status">
          You're offline: steps added by hand need the connection, so the photo can be checked.
        </p>
      )}
      <button type="submit" className="btn-primary w-full" disabled={mutation.isPending || !online}>
        {mutation.isPending ? "Adding…" : "Add Steps"}
      </button>
    </form>
  );
}
