import { LOGIN_PATH } from "@charity-steps/shared-types";
import { CircleCheck, LogIn } from "lucide-react";

const BETA_BENEFITS = [
  "Track your steps and monthly progress",
  "Explore the charity selection",
  "Join groups and compete",
  "Test all features",
];

/** Shown instead of a signed-in screen to a visitor who is not signed in. */
export function LoginRequired() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <section className="card p-6 text-center" aria-labelledby="login-required-title">
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-brand-soft">
          <LogIn aria-hidden="true" className="size-6 text-brand-strong" />
        </div>
        <h1 id="login-required-title" className="text-2xl font-bold tracking-tight">
          Log In Required
        </h1>
        <p className="mt-2 text-muted">Sign in to use this part of Charity Steps. The beta is free.</p>
        <a href={LOGIN_PATH} className="btn-primary mt-6 w-full">
          Log In to Continue
        </a>
        <h2 className="mt-6 text-left text-sm font-semibold">As a beta tester you can:</h2>
        <ul className="mt-2 space-y-2 text-left">
          {BETA_BENEFITS.map((benefit) => (
            <li key={benefit} className="flex items-start gap-2">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-strong" />
              <span>{benefit}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
