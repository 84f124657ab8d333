import { APPLE_HEALTH_IMPORT_PATH, type CreatedStepImportKey } from "@charity-steps/shared-types";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { Page } from "../../components/page";
import { paths } from "../../lib/paths";
import { HealthExportImport } from "./export/health-export-import";
import { ShortcutGuide } from "./shortcut-guide";
import { StepImportKeys } from "./step-import-keys";

/**
 * Apple Health, set up from the web: a step-import key, the iPhone Shortcut that sends each day's
 * steps with it, and a one-off import of the history in a Health export.
 */
export function AppleHealthPage() {
  // The key just made, for the guide to show: forgotten when it is removed, never stored.
  const [created, setCreated] = useState<CreatedStepImportKey | null>(null);
  const importUrl = `${window.location.origin}${APPLE_HEALTH_IMPORT_PATH}`;

  return (
    <Page
      title="Apple Health"
      back={
        <Link to={paths.dashboard} className="inline-flex items-center gap-1 text-sm font-medium">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Dashboard
        </Link>
      }
    >
      <div className="space-y-4">
        <section className="card space-y-2 p-4" aria-labelledby="apple-health-why">
          <h2 id="apple-health-why" className="text-lg font-semibold">
            Count the whole day with your iPhone
          </h2>
          <p>
            Your iPhone counts your steps all day in the Health app, even when Charity Steps is closed. A web
            app cannot read Health, but the iPhone's Shortcuts app can send each day's steps here, every
            evening, on its own.
          </p>
          <p className="text-sm text-muted">
            A walk counted by both this app and Apple Health is not added twice: each day counts the larger of
            the two.
          </p>
        </section>

        <section className="card space-y-3 p-4" aria-labelledby="apple-health-key">
          <h2 id="apple-health-key" className="text-lg font-semibold">
            1. Create a step-import key
          </h2>
          <p className="text-sm text-muted">
            The key lets the Shortcut send steps to your account, and nothing else. You can remove it here or
            on the Account page at any time.
          </p>
          <StepImportKeys
            onKeyCreated={setCreated}
            onKeyRemoved={(removed) => setCreated((current) => (current?.id === removed.id ? null : current))}
          />
        </section>

        <section className="card space-y-3 p-4" aria-labelledby="apple-health-shortcut">
          <h2 id="apple-health-shortcut" className="text-lg font-semibold">
            2. Build the Shortcut on your iPhone
          </h2>
          <ShortcutGuide importUrl={importUrl} stepKey={created?.key} />
        </section>

        {/* The history a Health export holds: an import of its own, with its own heading. */}
        <HealthExportImport />
      </div>
    </Page>
  );
}
