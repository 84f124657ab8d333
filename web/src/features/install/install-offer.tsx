import { Download, Share, SquarePlus, X } from "lucide-react";
import { useEffect, useState } from "react";
import {
  firstVisitAt,
  isIosSafari,
  lastOfferedAt,
  PAGE_LOADED_AT,
  rememberOffered,
  runsInstalled,
  shouldOfferInstall,
  useInstallStore,
} from "../../lib/install-prompt";

/**
 * Offers to install the app, on the dashboard, once the walker has counted steps: the browser's own
 * dialog on Android and desktop Chromium, a short Add to Home Screen guide in Safari on an iPhone.
 * Never on the first visit, and at most once a week.
 */
export function InstallOffer({ hasSteps }: { hasSteps: boolean }) {
  const offer = useInstallStore((state) => state.offer);
  const installed = useInstallStore((state) => state.installed);
  const [decided] = useState(() => ({
    now: Date.now(),
    firstVisitAt: firstVisitAt(PAGE_LOADED_AT),
    lastOfferedAt: lastOfferedAt(),
    ios: isIosSafari() && !runsInstalled(),
  }));
  const [closed, setClosed] = useState(false);
  const due = shouldOfferInstall(
    {
      firstVisitAt: decided.firstVisitAt,
      lastOfferedAt: decided.lastOfferedAt,
      hasSteps,
      thisLoadAt: PAGE_LOADED_AT,
    },
    decided.now,
  );
  const kind = offer ? "browser" : decided.ios ? "ios" : null;
  const visible = due && !closed && !installed && kind !== null;
  // Shown is offered: a walker who ignores it is not asked again for a week.
  useEffect(() => {
    if (visible) rememberOffered(decided.now);
  }, [visible, decided.now]);
  if (!visible) return null;
  const close = () => setClosed(true);

  return (
    <section className="card relative space-y-2 border-brand-strong p-4" aria-labelledby="install-title">
      <button
        type="button"
        className="absolute top-2 right-2 flex size-9 items-center justify-center rounded-md text-muted"
        aria-label="Not now"
        onClick={close}
      >
        <X aria-hidden="true" className="size-5" />
      </button>
      <h2 id="install-title" className="flex items-center gap-2 pr-10 text-lg font-semibold">
        <Download aria-hidden="true" className="size-5 text-brand-strong" />
        Install Charity Steps
      </h2>
      <p className="text-sm text-muted">
        It opens from your home screen like an app, keeps walk mode steadier, and can tell you when you reach
        your goal or win a prize.
      </p>
      {kind === "browser" && offer ? (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-primary"
            onClick={async () => {
              await offer.prompt();
              await offer.userChoice.catch(() => null);
              useInstallStore.setState({ offer: null });
              close();
            }}
          >
            Install
          </button>
          <button type="button" className="btn-secondary" onClick={close}>
            Not now
          </button>
        </div>
      ) : (
        <>
          <ol className="list-decimal space-y-1 pl-5 text-sm" data-testid="ios-install-guide">
            <li>
              Tap <Share aria-label="Share" className="inline size-4 align-[-0.15em]" /> Share at the bottom
              of Safari.
            </li>
            <li>
              Choose <SquarePlus aria-hidden="true" className="inline size-4 align-[-0.15em]" /> Add to Home
              Screen, then Add.
            </li>
            <li>Open Charity Steps from your home screen.</li>
          </ol>
          <button type="button" className="btn-secondary" onClick={close}>
            Got it
          </button>
        </>
      )}
    </section>
  );
}
