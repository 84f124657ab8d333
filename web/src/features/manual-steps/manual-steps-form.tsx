import {
  addDays,
  IDEMPOTENCY_KEY_HEADER,
  londonDay,
  MANUAL_NOTE_MAX_CHARS,
  MANUAL_SOURCE,
  type ManualEntryResponse,
  STEP_HISTORY_DAYS,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { refreshStepQueries } from "../../lib/step-queries";
import { toast } from "../../lib/toast-store";
import { useLondonDay } from "../../lib/use-london-day";
import { useOnline } from "../../lib/use-online";
import { handleUnauthorizedError } from "../auth/unauthorized";
import { type FormProblem, noteProblem, photoProblem, stepsProblem } from "./manual-steps-rules";
import { PhotoDropZone } from "./photo-drop-zone";

interface ManualStepsValues {
  steps: string;
  date: string;
  note: string;
}

const showProblem = ({ title, description }: FormProblem) =>
  toast({ title, description, variant: "destructive" });

/**
 * Steps walked without the phone, with a photo as proof: checked here with the
 * spec's messages, then sent as multipart with an Idempotency-Key, so a retry never adds twice.
 */
export function ManualStepsForm() {
  const queryClient = useQueryClient();
  const online = useOnline();
  const today = useLondonDay();
  const ids = { steps: useId(), date: useId(), note: useId() };
  const [photo, setPhoto] = useState<File | null>(null);
  const { register, handleSubmit, reset, watch } = useForm<ManualStepsValues>({
    defaultValues: { steps: "", date: today, note: "" },
  });
  // One key per entry: kept while the same entry is retried, replaced once anything changes.
  const idempotencyKey = useRef<string | null>(null);
  useEffect(() => {
    const subscription = watch(() => {
      idempotencyKey.current = null;
    });
    return () => subscription.unsubscribe();
  }, [watch]);

  // Checked as soon as it is picked or dropped, so a wrong file is refused with the spec's toast.
  const pickPhoto = (file: File | null) => {
    const problem = file && photoProblem(file);
    if (problem) return showProblem(problem);
    idempotencyKey.current = null;
    setPhoto(file);
  };

  const mutation = useMutation({
    mutationFn: async ({ values, file, key }: { values: ManualStepsValues; file: File; key: string }) => {
      const form = new FormData();
      form.append("steps", values.steps.trim());
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
    onSuccess: async () => {
      toast({
        title: "Steps Added Successfully",
        description: "Your steps have been added and automatically verified!",
      });
      idempotencyKey.current = null;
      reset({ steps: "", date: londonDay(), note: "" });
      setPhoto(null);
      await refreshStepQueries(queryClient);
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
    const problem = stepsProblem(values.steps) ?? photoProblem(photo) ?? noteProblem(values.note);
    if (problem) return showProblem(problem);
    idempotencyKey.current ??= crypto.randomUUID();
    mutation.mutate({ values, file: photo as File, key: idempotencyKey.current });
  });

  return (
    <form onSubmit={submit} noValidate className="card space-y-4 p-4" aria-labelledby={`${ids.steps}-title`}>
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
            {...register("date")}
          />
        </label>
      </div>
      <label htmlFor={ids.note} className="block text-sm font-medium">
        Note{" "}
        <span className="font-normal text-muted">(optional, up to {MANUAL_NOTE_MAX_CHARS} characters)</span>
        <textarea id={ids.note} rows={2} className="field" {...register("note")} />
      </label>
      <PhotoDropZone photo={photo} onPick={pickPhoto} />
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
