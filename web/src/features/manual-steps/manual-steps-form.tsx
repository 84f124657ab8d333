import {
  addDays,
  IDEMPOTENCY_KEY_HEADER,
  londonDay,
  MANUAL_IMAGE_MAX_BYTES,
  MANUAL_NOTE_MAX_CHARS,
  MANUAL_SOURCE,
  type ManualEntryResponse,
  STEP_HISTORY_DAYS,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ImagePlus, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { type FileRejection, useDropzone } from "react-dropzone";
import { useForm } from "react-hook-form";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { refreshStepQueries } from "../../lib/step-queries";
import { toast } from "../../lib/toast-store";
import { useLondonDay } from "../../lib/use-london-day";
import { useOnline } from "../../lib/use-online";
import { handleUnauthorizedError } from "../auth/unauthorized";
import { type FormProblem, noteProblem, PROBLEMS, photoProblem, stepsProblem } from "./manual-steps-rules";

interface ManualStepsValues {
  steps: string;
  date: string;
  note: string;
}

const showProblem = ({ title, description }: FormProblem) =>
  toast({ title, description, variant: "destructive" });

/**
 * Steps walked without the phone, with a photo as proof (spec §2, §5): checked here with the
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

  const dropzone = useDropzone({
    accept: { "image/*": [] },
    maxFiles: 1,
    maxSize: MANUAL_IMAGE_MAX_BYTES,
    onDrop: (accepted: File[], rejected: FileRejection[]) => {
      const refused = rejected[0];
      if (refused) {
        const tooLarge = refused.errors.some((error) => error.code === "file-too-large");
        showProblem(tooLarge ? PROBLEMS.fileTooLarge : PROBLEMS.invalidFileType);
        return;
      }
      idempotencyKey.current = null;
      setPhoto(accepted[0] ?? null);
    },
  });

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
      <div className="grid grid-cols-2 gap-3">
        <label htmlFor={ids.steps} className="block text-sm font-medium">
          Steps
          <input
            id={ids.steps}
            inputMode="numeric"
            autoComplete="off"
            placeholder="e.g. 5000"
            className="mt-1 w-full rounded-lg border border-line px-3 py-2"
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
            className="mt-1 w-full rounded-lg border border-line px-3 py-2"
            {...register("date")}
          />
        </label>
      </div>
      <label htmlFor={ids.note} className="block text-sm font-medium">
        Note{" "}
        <span className="font-normal text-muted">(optional, up to {MANUAL_NOTE_MAX_CHARS} characters)</span>
        <textarea
          id={ids.note}
          rows={2}
          className="mt-1 w-full rounded-lg border border-line px-3 py-2"
          {...register("note")}
        />
      </label>
      <div
        {...dropzone.getRootProps({
          className: `flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed p-4 text-center text-sm ${
            dropzone.isDragActive ? "border-brand bg-brand-soft" : "border-line"
          }`,
        })}
      >
        <input {...dropzone.getInputProps({ "aria-label": "Photo proof" })} />
        <ImagePlus aria-hidden="true" className="size-6 text-brand-strong" />
        {photo ? (
          <p className="flex items-center gap-2 font-medium">
            {photo.name}
            <button
              type="button"
              aria-label="Remove photo"
              className="rounded p-1 hover:bg-page"
              onClick={(event) => {
                event.stopPropagation();
                setPhoto(null);
              }}
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          </p>
        ) : (
          <p>Drop a photo here, or tap to choose one (JPG, PNG…, under 5MB)</p>
        )}
      </div>
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
