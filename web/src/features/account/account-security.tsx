import type { AccountMessage, ChangeEmailRequest, ChangePasswordRequest } from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Mail, MailCheck, MailWarning, ShieldCheck } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { FormProblem } from "../../components/form-problem";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { AUTH_USER_QUERY_KEY, authUserQuery } from "../../lib/use-auth";

export const ACCOUNT_PASSWORD_PATH = "/api/account/password";
export const ACCOUNT_EMAIL_PATH = "/api/account/email";
export const ACCOUNT_EMAIL_CONFIRMATION_PATH = "/api/account/email-confirmation";

async function post(path: string, body?: unknown): Promise<AccountMessage> {
  return (await (await apiRequest("POST", path, body)).json()) as AccountMessage;
}

/**
 * The account's sign-in details: whether its email is confirmed (with a button to send the link
 * again), and forms to change the password and the email. Only a built-in account has them here;
 * an external provider's walker is told that provider manages them.
 */
export function AccountSecurity() {
  // Asked again whenever the walker comes back to the page: the confirmation link is usually
  // followed in another tab or on another device.
  const { data: user } = useQuery({ ...authUserQuery, refetchOnWindowFocus: "always" });
  const titleId = useId();
  if (!user) return null;

  if (user.accountKind !== "built-in") {
    return (
      <section className="card mt-4 space-y-2 p-4" aria-labelledby={titleId}>
        <h2 id={titleId} className="flex items-center gap-2 text-lg font-semibold">
          <ShieldCheck aria-hidden="true" className="size-5 text-brand-strong" />
          Sign-in and security
        </h2>
        <p className="text-sm text-muted">
          You sign in with another service: your password and email are managed there, not in Charity Steps.
        </p>
      </section>
    );
  }

  return (
    <section className="card mt-4 space-y-5 p-4" aria-labelledby={titleId}>
      <h2 id={titleId} className="flex items-center gap-2 text-lg font-semibold">
        <ShieldCheck aria-hidden="true" className="size-5 text-brand-strong" />
        Sign-in and security
      </h2>
      <EmailStatus email={user.email} confirmed={user.emailVerified} />
      <ChangePasswordForm />
      <ChangeEmailForm />
    </section>
  );
}

function EmailStatus({ email, confirmed }: { email: string | null; confirmed: boolean }) {
  const resend = useMutation({
    mutationFn: () => post(ACCOUNT_EMAIL_CONFIRMATION_PATH),
    onSuccess: ({ message }) => toast({ title: "Confirmation link sent", description: message }),
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      toast({
        title: "Error",
        description: serverMessage(error, "The link could not be sent. Check your connection and try again."),
        variant: "destructive",
      });
    },
  });

  if (confirmed) {
    return (
      <div className="text-sm">
        <p className="flex items-center gap-2 font-medium">
          <MailCheck aria-hidden="true" className="size-5 text-brand-strong" />
          Email confirmed
        </p>
        {email && <p className="[overflow-wrap:break-word] pl-7 text-muted">{email}</p>}
      </div>
    );
  }
  return (
    <div className="space-y-2 rounded-lg border border-notice-line bg-notice-soft p-3">
      <p className="flex items-center gap-2 text-sm font-semibold text-notice-ink">
        <MailWarning aria-hidden="true" className="size-5" />
        Email not confirmed
      </p>
      <p className="text-sm text-notice-ink">
        We sent a link to {email ?? "your email"}. Follow it so that you can always get back into your
        account.
      </p>
      <button
        type="button"
        className="btn-secondary"
        disabled={resend.isPending}
        onClick={() => resend.mutate()}
      >
        {resend.isPending ? "Sending…" : "Resend the link"}
      </button>
    </div>
  );
}

function ChangePasswordForm() {
  const ids = { title: useId(), current: useId(), next: useId(), problem: useId() };
  const [problem, setProblem] = useState<string | null>(null);
  const { register, handleSubmit, reset } = useForm<ChangePasswordRequest>({
    defaultValues: { currentPassword: "", newPassword: "" },
  });
  const change = useMutation({
    mutationFn: (body: ChangePasswordRequest) => post(ACCOUNT_PASSWORD_PATH, body),
    onSuccess: ({ message }) => {
      setProblem(null);
      reset();
      toast({ title: "Password changed", description: message });
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      setProblem(
        serverMessage(error, "Your password could not be changed. Check your connection and try again."),
      );
    },
  });
  const submit = handleSubmit((values) => {
    if (!values.currentPassword || !values.newPassword) {
      return setProblem("Enter your current password and a new one.");
    }
    change.mutate(values);
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3 border-t border-line pt-4"
      aria-labelledby={ids.title}
    >
      <h3 id={ids.title} className="flex items-center gap-2 font-semibold">
        <KeyRound aria-hidden="true" className="size-4 text-muted" />
        Change password
      </h3>
      <label htmlFor={ids.current} className="block text-sm font-medium">
        Current password
        <input
          id={ids.current}
          type="password"
          autoComplete="current-password"
          className="field"
          aria-describedby={problem ? ids.problem : undefined}
          {...register("currentPassword")}
        />
      </label>
      <label htmlFor={ids.next} className="block text-sm font-medium">
        New password
        <input
          id={ids.next}
          type="password"
          autoComplete="new-password"
          className="field"
          aria-describedby={problem ? ids.problem : undefined}
          {...register("newPassword")}
        />
        <span className="mt-1 block text-xs font-normal text-muted">
          At least 8 characters, and not a common or leaked password. Your other devices are signed out.
        </span>
      </label>
      <FormProblem id={ids.problem} problem={problem} />
      <button type="submit" className="btn-primary" disabled={change.isPending}>
        {change.isPending ? "Saving…" : "Change password"}
      </button>
    </form>
  );
}

function ChangeEmailForm() {
  const queryClient = useQueryClient();
  const ids = { title: useId(), email: useId(), password: useId(), problem: useId() };
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const { register, handleSubmit, reset } = useForm<ChangeEmailRequest>({
    defaultValues: { newEmail: "", currentPassword: "" },
  });
  const change = useMutation({
    mutationFn: (body: ChangeEmailRequest) => post(ACCOUNT_EMAIL_PATH, body),
    onSuccess: async ({ message }) => {
      setProblem(null);
      setSent(message);
      reset();
      toast({ title: "Check your new inbox", description: message });
      await queryClient.invalidateQueries({ queryKey: AUTH_USER_QUERY_KEY });
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      setSent(null);
      setProblem(
        serverMessage(error, "Your email could not be changed. Check your connection and try again."),
      );
    },
  });
  const submit = handleSubmit((values) => {
    // A new try replaces the answer to the last one: never a problem beside an old success.
    setSent(null);
    if (!values.newEmail.trim() || !values.currentPassword) {
      return setProblem("Enter the new email and your current password.");
    }
    change.mutate({ ...values, newEmail: values.newEmail.trim() });
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3 border-t border-line pt-4"
      aria-labelledby={ids.title}
    >
      <h3 id={ids.title} className="flex items-center gap-2 font-semibold">
        <Mail aria-hidden="true" className="size-4 text-muted" />
        Change email
      </h3>
      <label htmlFor={ids.email} className="block text-sm font-medium">
        New email
        <input id={ids.email} type="email" autoComplete="email" className="field" {...register("newEmail")} />
      </label>
      <label htmlFor={ids.password} className="block text-sm font-medium">
        Current password
        <input
          id={ids.password}
          type="password"
          autoComplete="current-password"
          className="field"
          {...register("currentPassword")}
        />
        <span className="mt-1 block text-xs font-normal text-muted">
          We send a link to the new address: your email changes once you follow it.
        </span>
      </label>
      <FormProblem id={ids.problem} problem={problem} />
      {sent && (
        <p role="status" className="text-sm text-brand-strong">
          {sent}
        </p>
      )}
      <button type="submit" className="btn-primary" disabled={change.isPending}>
        {change.isPending ? "Sending…" : "Change email"}
      </button>
    </form>
  );
}
