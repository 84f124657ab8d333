import {
  londonDay,
  OPERATOR_POSTAL_ENTRIES_PATH,
  POSTAL_ENTRY_ADDRESS_MAX_CHARS,
  POSTAL_ENTRY_NAME_MAX_CHARS,
  type PostalEntry,
  type PostalEntryRequest,
  postalClosingDay,
  postalEntryMonth,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Mail } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useForm } from "react-hook-form";
import { CharacterCount, overLimit, tooLongMessage } from "../../components/character-count";
import { FormProblem } from "../../components/form-problem";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { AUDIT_LOG_KEY, POSTAL_ENTRIES_KEY } from "./operator-queries";

interface FormValues {
  month: string;
  fullName: string;
  address: string;
  email: string;
  receivedOn: string;
}

/**
 * Records one envelope of the free postal route. The server decides whether it goes to a draw:
 * its refusal (received after the 25th, say) is shown as it says it.
 */
export function PostalEntryForm({
  onMonth,
  onRecorded,
}: {
  /** Told of each month chosen, so that the month's entries can be shown beside the form. */
  onMonth: (month: string) => void;
  onRecorded: (entry: PostalEntry) => void;
}) {
  const queryClient = useQueryClient();
  const ids = {
    title: useId(),
    month: useId(),
    name: useId(),
    address: useId(),
    email: useId(),
    received: useId(),
    problem: useId(),
  };
  const [problem, setProblem] = useState<string | null>(null);
  const { register, handleSubmit, reset, watch } = useForm<FormValues>({
    // The month an entry received today can still enter: after the 25th, next month's.
    defaultValues: {
      month: postalEntryMonth(),
      fullName: "",
      address: "",
      email: "",
      receivedOn: londonDay(),
    },
  });
  const month = watch("month");
  useEffect(() => {
    if (/^\d{4}-\d{2}$/.test(month)) onMonth(month);
  }, [month, onMonth]);

  const record = useMutation({
    mutationFn: async (body: PostalEntryRequest) =>
      (await (await apiRequest("POST", OPERATOR_POSTAL_ENTRIES_PATH, body)).json()) as PostalEntry,
    onSuccess: async (entry) => {
      setProblem(null);
      reset({ month: entry.month, fullName: "", address: "", email: "", receivedOn: entry.receivedOn });
      toast({
        title: entry.possibleDuplicate ? "Recorded: possible duplicate" : "Postal entry recorded",
        description: entry.possibleDuplicate
          ? `${entry.fullName} looks like an entry already recorded for the same day. Check the list.`
          : `${entry.fullName}, for the ${entry.month} draw.`,
        ...(entry.possibleDuplicate ? { variant: "destructive" as const } : {}),
      });
      onRecorded(entry);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: POSTAL_ENTRIES_KEY }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_KEY }),
      ]);
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      setProblem(
        serverMessage(error, "The entry could not be recorded. Check your connection and try again."),
      );
    },
  });

  const submit = handleSubmit((values) => {
    if (!values.fullName.trim() || !values.address.trim() || !values.month || !values.receivedOn) {
      return setProblem("Enter the month, the full name, the address and the date received.");
    }
    if (overLimit(values.fullName.trim(), POSTAL_ENTRY_NAME_MAX_CHARS)) {
      return setProblem(tooLongMessage("The full name", POSTAL_ENTRY_NAME_MAX_CHARS));
    }
    if (overLimit(values.address.trim(), POSTAL_ENTRY_ADDRESS_MAX_CHARS)) {
      return setProblem(tooLongMessage("The address", POSTAL_ENTRY_ADDRESS_MAX_CHARS));
    }
    const email = values.email.trim();
    record.mutate({
      month: values.month,
      fullName: values.fullName.trim(),
      address: values.address.trim(),
      receivedOn: values.receivedOn,
      ...(email ? { email } : {}),
    });
  });

  const describedBy = problem ? ids.problem : undefined;
  return (
    <form onSubmit={submit} noValidate className="card space-y-3 p-4" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="flex items-center gap-2 text-lg font-semibold">
        <Mail aria-hidden="true" className="size-5 text-brand-strong" />
        Record a postal entry
      </h2>
      <p className="text-sm text-muted">
        One entry per envelope. It counts for its month's draw only if it arrived by{" "}
        {/^\d{4}-\d{2}$/.test(month) ? postalClosingDay(month) : "the 25th"}.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <label htmlFor={ids.month} className="block text-sm font-medium">
          Draw month
          <input
            id={ids.month}
            type="month"
            className="field"
            aria-describedby={describedBy}
            {...register("month")}
          />
        </label>
        <label htmlFor={ids.received} className="block text-sm font-medium">
          Date received
          <input
            id={ids.received}
            type="date"
            max={londonDay()}
            className="field"
            aria-describedby={describedBy}
            {...register("receivedOn")}
          />
        </label>
      </div>
      <div>
        <label htmlFor={ids.name} className="block text-sm font-medium">
          Full name
          <input
            id={ids.name}
            autoComplete="off"
            className="field"
            aria-describedby={[`${ids.name}-count`, describedBy].join(" ").trim()}
            {...register("fullName")}
          />
        </label>
        <CharacterCount
          id={`${ids.name}-count`}
          label="The full name"
          text={watch("fullName").trim()}
          max={POSTAL_ENTRY_NAME_MAX_CHARS}
        />
      </div>
      <div>
        <label htmlFor={ids.address} className="block text-sm font-medium">
          Address
          <textarea
            id={ids.address}
            rows={4}
            className="field"
            aria-describedby={[`${ids.address}-count`, describedBy].join(" ").trim()}
            {...register("address")}
          />
        </label>
        <CharacterCount
          id={`${ids.address}-count`}
          label="The address"
          text={watch("address").trim()}
          max={POSTAL_ENTRY_ADDRESS_MAX_CHARS}
        />
      </div>
      <label htmlFor={ids.email} className="block text-sm font-medium">
        Email <span className="font-normal text-muted">(if given)</span>
        <input
          id={ids.email}
          type="email"
          autoComplete="off"
          className="field"
          aria-describedby={describedBy}
          {...register("email")}
        />
      </label>
      <FormProblem id={ids.problem} problem={problem} />
      <button type="submit" className="btn-primary" disabled={record.isPending}>
        {record.isPending ? "Recording…" : "Record entry"}
      </button>
    </form>
  );
}
