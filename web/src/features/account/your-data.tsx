import {
  ACCOUNT_EXPORT_PATH,
  ACCOUNT_MESSAGES,
  ACCOUNT_PATH,
  DELETE_CONFIRM_WORD,
  type DeleteAccountRequest,
  LOGOUT_PATH,
} from "@charity-steps/shared-types";
import { useMutation } from "@tanstack/react-query";
import { Download, ShieldCheck, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { FormProblem } from "../../components/form-problem";
import { rememberAccountDeleted } from "../../lib/account-deleted";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { navigateTo } from "../../lib/browser-location";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { useAuth } from "../../lib/use-auth";
import { useOnline } from "../../lib/use-online";

/**
 * The walker's own data: download all of it as a ZIP, or delete the account. Deleting erases who
 * they are and keeps their steps only as anonymous numbers, so that payments and challenge teams'
 * totals do not change (their charity and groups stop counting them); it signs every device out and
 * ends on the home page.
 */
export function YourData() {
  const ids = { title: useId() };
  return (
    <section className="card space-y-4 p-4" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="flex items-center gap-2 text-lg font-semibold">
        <ShieldCheck aria-hidden="true" className="size-5 text-brand-strong" />
        Your data
      </h2>
      <div className="space-y-2">
        <p className="text-sm text-muted">
          A ZIP file with everything Charity Steps holds about you: your profile, every day's steps (with each
          device that counted them), your months, your manual entries with their photos, your groups, your
          signed-in devices and your step-import keys (never their secrets).
        </p>
        <a href={ACCOUNT_EXPORT_PATH} download className="btn-secondary w-full">
          <Download aria-hidden="true" className="size-4" />
          Download my data
        </a>
      </div>
      <DeleteAccount />
    </section>
  );
}

function DeleteAccount() {
  const { user } = useAuth();
  const online = useOnline();
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { title: useId(), confirm: useId(), problem: useId() };
  const { register, handleSubmit } = useForm<DeleteAccountRequest>({ defaultValues: { confirmEmail: "" } });
  const email = user?.email ?? null;

  const erase = useMutation({
    mutationFn: async (body: DeleteAccountRequest) => {
      await apiRequest("DELETE", ACCOUNT_PATH, body);
    },
    onSuccess: () => {
      toast({ title: "Account deleted", description: "Your personal data has been erased." });
      rememberAccountDeleted();
      // Through the sign-out route, so the offline copies of your screens are emptied on this device too.
      navigateTo(LOGOUT_PATH);
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      setProblem(
        serverMessage(error, "Your account could not be deleted. Check your connection and try again."),
      );
    },
  });

  const submit = handleSubmit(({ confirmEmail }) => {
    const typed = confirmEmail.trim();
    const matches = email ? typed.toLowerCase() === email.toLowerCase() : typed === DELETE_CONFIRM_WORD;
    if (!matches) {
      setProblem(email ? ACCOUNT_MESSAGES.confirmEmail : ACCOUNT_MESSAGES.confirmWord);
      return;
    }
    erase.mutate({ confirmEmail: typed });
  });

  if (!open) {
    return (
      <div className="border-t border-line pt-4">
        <button type="button" className="btn-secondary w-full text-destructive" onClick={() => setOpen(true)}>
          <Trash2 aria-hidden="true" className="size-4" />
          Delete my account
        </button>
      </div>
    );
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3 border-t border-line pt-4"
      aria-labelledby={ids.title}
    >
      <h3 id={ids.title} className="flex items-center gap-2 font-semibold text-destructive">
        <Trash2 aria-hidden="true" className="size-4" />
        Delete my account
      </h3>
      <div className="space-y-1 text-sm">
        <p>
          <span className="font-semibold">Deleted for good:</span> your name, email and picture, your charity
          choice, your password, the notes and photos of your manual entries, your step-import keys, and every
          signed-in device. Groups you run pass to their longest-standing member (or close if no one else is
          in them), and you leave every group.
        </p>
        <p>
          <span className="font-semibold">Kept, with nothing to say they were yours:</span> the step counts
          themselves and any payment, so that what the charities receive and the totals of your challenges'
          teams do not change. Your steps no longer count in your charity's or your groups' walking totals.
        </p>
        <p className="text-muted">
          Download your data first if you want a copy. Signing up again later starts a new, empty account.
        </p>
      </div>
      <label htmlFor={ids.confirm} className="block text-sm font-medium">
        {email ? (
          <>
            Type your account's email (<span className="[overflow-wrap:anywhere]">{email}</span>) to confirm
          </>
        ) : (
          <>Your account has no email: type {DELETE_CONFIRM_WORD} to confirm</>
        )}
        <input
          id={ids.confirm}
          type={email ? "email" : "text"}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          className="field"
          aria-invalid={problem !== null}
          aria-describedby={problem ? ids.problem : undefined}
          {...register("confirmEmail", { onChange: () => setProblem(null) })}
        />
      </label>
      <FormProblem id={ids.problem} problem={problem} />
      {!online && (
        <p className="text-sm text-muted" role="status">
          You're offline: deleting your account needs the connection.
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="button"
          className="btn-secondary flex-1"
          onClick={() => {
            setOpen(false);
            setProblem(null);
          }}
        >
          Keep my account
        </button>
        <button
          type="submit"
          className="btn-primary flex-1 bg-destructive"
          disabled={!online || erase.isPending}
        >
          {erase.isPending ? "Deleting…" : "Delete my account"}
        </button>
      </div>
    </form>
  );
}
