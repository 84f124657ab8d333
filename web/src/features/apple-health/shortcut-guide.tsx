import { STEP_IMPORT_KEY_NOT_VALID_MESSAGE, STEP_IMPORT_KEY_SCHEME } from "@charity-steps/shared-types";
import { Smartphone } from "lucide-react";
import type { ReactNode } from "react";
import { CopyableValue } from "../../components/copy-button";
import {
  CalculateStatisticsPicture,
  ChargerPicture,
  FindHealthSamplesPicture,
  GetContentsOfUrlPicture,
  NewShortcutPicture,
  RunShortcutPicture,
  TimeOfDayPicture,
} from "./shortcut-pictures";

export const SHORTCUT_NAME = "Send steps to Charity Steps";
/** Late enough to hold most of the day's walking; the charger automation catches what comes after. */
const EVENING_TIME = "21:30";

/** An action or setting name as the Shortcuts app spells it, so the walker can find it by eye. */
function Name({ children }: { children: ReactNode }) {
  return <strong className="font-semibold">{children}</strong>;
}

function Step({
  number,
  title,
  children,
  picture,
}: {
  number: number;
  title: string;
  children: ReactNode;
  picture: ReactNode;
}) {
  return (
    <li className="space-y-3 border-t border-line pt-4" data-testid="guide-step">
      <h4 className="flex items-start gap-3 font-semibold">
        <span
          aria-hidden="true"
          className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-strong text-sm text-on-brand"
        >
          {number}
        </span>
        <span className="pt-0.5">
          <span className="sr-only">Step {number}: </span>
          {title}
        </span>
      </h4>
      <div className="space-y-2 text-sm">{children}</div>
      <div className="flex justify-center">{picture}</div>
    </li>
  );
}

/**
 * Step-by-step: build a Shortcut that reads today's steps from Apple Health and sends them here,
 * then two personal automations that run it every evening and whenever the phone starts charging.
 * `stepKey` is the key just created, when there is one; otherwise the walker pastes their own. Like the
 * key list, it has no card or title of its own: the page puts it in its card under its heading.
 */
export function ShortcutGuide({ importUrl, stepKey }: { importUrl: string; stepKey?: string }) {
  const authorization = `${STEP_IMPORT_KEY_SCHEME} ${stepKey ?? "<your key>"}`;
  const keyHint = stepKey ? `${stepKey.slice(0, 8)}…` : "<your key>";

  return (
    <div className="space-y-4">
      <div className="space-y-3">
        <p className="flex items-start gap-2 text-sm text-muted">
          <Smartphone aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-strong" />
          Apple Health keeps your steps on your iPhone. The Shortcuts app, already on every iPhone, can read
          them and send them here by itself every evening. It takes about ten minutes to set up, once. You
          will paste these two things:
        </p>
        <div className="space-y-1">
          <p className="text-sm font-medium">The web address</p>
          <CopyableValue
            value={importUrl}
            label="Copy the web address"
            what="Web address"
            testId="guide-url"
          />
        </div>
        <div className="space-y-1">
          <p className="text-sm font-medium">The Authorization value</p>
          {stepKey ? (
            <CopyableValue
              value={authorization}
              label="Copy the Authorization value"
              what="Authorization value"
              testId="guide-authorization"
            />
          ) : (
            <p className="text-sm text-muted" data-testid="guide-authorization">
              <code className="font-mono">{authorization}</code>: the word Bearer, a space, then a key you
              create above. A key is shown only once, so create a new one if you no longer have it.
            </p>
          )}
        </div>
      </div>

      <h3 className="text-base font-semibold">Part 1: build the Shortcut</h3>
      <ol className="space-y-4">
        <Step
          number={1}
          title="Start a new shortcut"
          picture={<NewShortcutPicture shortcutName={SHORTCUT_NAME} />}
        >
          <p>
            Open the <Name>Shortcuts</Name> app and tap <Name>+</Name> to start a new shortcut. Tap its name
            at the top and call it <Name>{SHORTCUT_NAME}</Name>.
          </p>
          <p>
            Tap the search field for actions and type <Name>Find Health Samples</Name>, then tap it to add it.
          </p>
        </Step>

        <Step number={2} title="Find today's steps in Health" picture={<FindHealthSamplesPicture />}>
          <p>
            In <Name>Find Health Samples</Name>, tap the blue <Name>Type</Name> and choose <Name>Steps</Name>.
          </p>
          <p>
            Tap <Name>Add Filter</Name> and set the new line to <Name>Start Date</Name> <Name>is today</Name>.
            Set <Name>Group By</Name> to <Name>Day</Name>: Health then gives the day's total the way its own
            app counts it, so steps that an Apple Watch and the iPhone both counted are counted once. Leave{" "}
            <Name>Sort by</Name> and <Name>Limit</Name> as they are.
          </p>
        </Step>

        <Step number={3} title="Add them up" picture={<CalculateStatisticsPicture />}>
          <p>
            Search for <Name>Calculate Statistics</Name> and add it under the first action. Tap its blue word
            (it starts as <Name>Average</Name>) and choose <Name>Sum</Name>. It should read{" "}
            <Name>Calculate Sum of Health Samples</Name>.
          </p>
        </Step>

        <Step
          number={4}
          title="Send the total to Charity Steps"
          picture={<GetContentsOfUrlPicture importUrl={importUrl} keyHint={keyHint} />}
        >
          <p>
            Search for <Name>Get Contents of URL</Name> and add it last. Tap <Name>URL</Name> and paste the
            web address:
          </p>
          <CopyableValue value={importUrl} label="Copy the web address for step 4" what="Web address" />
          <p>
            Tap the arrow or <Name>Show More</Name> to open its settings, then:
          </p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              <Name>Method</Name>: choose <Name>POST</Name>.
            </li>
            <li>
              <Name>Headers</Name>: tap <Name>Add new header</Name>. Type{" "}
              <code className="font-mono">Authorization</code> as its key and paste the Authorization value (
              <code className="font-mono">{STEP_IMPORT_KEY_SCHEME}</code>, a space, then your key) as its
              value.
            </li>
            <li>
              <Name>Request Body</Name>: choose <Name>JSON</Name>, tap <Name>Add new field</Name>, choose{" "}
              <Name>Number</Name>, type <code className="font-mono">steps</code> as its key, and for its value
              pick the <Name>Statistics</Name> variable from the bar above the keyboard.
            </li>
          </ul>
          {stepKey && (
            <CopyableValue
              value={authorization}
              label="Copy the Authorization value for step 4"
              what="Authorization value"
            />
          )}
        </Step>

        <Step number={5} title="Try it once" picture={<RunShortcutPicture shortcutName={SHORTCUT_NAME} />}>
          <p>
            Tap the play button. The first time, iPhone asks whether the shortcut may read your Health data
            and send it to Charity Steps: allow both (<Name>Always Allow</Name> saves asking again; the exact
            words differ between iOS versions).
          </p>
          <p>
            A short answer with your day's totals means it worked: your steps now show in Charity Steps. An
            answer that begins "{STEP_IMPORT_KEY_NOT_VALID_MESSAGE.split(":")[0]}" means the key was removed,
            or the Authorization value was not pasted whole: create a new key on your Account page and paste
            it in place of the old one.
          </p>
        </Step>
      </ol>

      <h3 className="text-base font-semibold">Part 2: let it run by itself</h3>
      <p className="text-sm text-muted">
        Two personal automations run the shortcut for you: one every evening and one whenever you plug the
        phone in. Sending more than once a day is fine: Charity Steps keeps the highest count it receives for
        each day.
      </p>
      <ol className="space-y-4" start={6}>
        <Step
          number={6}
          title="Every evening"
          picture={<TimeOfDayPicture shortcutName={SHORTCUT_NAME} time={EVENING_TIME} />}
        >
          <p>
            In Shortcuts, open the <Name>Automation</Name> tab and tap <Name>+</Name> (or{" "}
            <Name>New Automation</Name>). Choose <Name>Time of Day</Name>, set it to {EVENING_TIME}, and{" "}
            <Name>Daily</Name>.
          </p>
          <p>
            Choose <Name>Run Immediately</Name>, then <Name>Next</Name>, and pick <Name>{SHORTCUT_NAME}</Name>
            . On iOS 16 and earlier, add the <Name>Run Shortcut</Name> action instead, and turn off{" "}
            <Name>Ask Before Running</Name> on the last screen.
          </p>
        </Step>
        <Step
          number={7}
          title="When the phone starts charging"
          picture={<ChargerPicture shortcutName={SHORTCUT_NAME} />}
        >
          <p>
            Make one more automation the same way, choosing <Name>Charger</Name> and <Name>Is Connected</Name>{" "}
            instead of a time. It catches the steps you walk after the evening run, when you plug in at night.
          </p>
        </Step>
      </ol>

      <div className="space-y-2 rounded-lg bg-page p-3 text-sm">
        <h3 className="text-base font-semibold">Good to know</h3>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            iPhone keeps Health data locked while the phone is locked, so a run at a locked moment may send
            nothing. Nothing is lost: the next run sends the whole day again.
          </li>
          <li>
            If your iPhone does not offer <Name>Run Immediately</Name>, it shows a notification when the time
            comes instead: tap it to send your steps.
          </li>
          <li>
            On the newest iOS, Apple has moved automations into the shortcut itself: open the shortcut and
            look for its <Name>Automation</Name> section. We could not check every screen on every iOS
            version, so a label may read a little differently on yours.
          </li>
          <li>
            Compare the first number sent with the Health app's own total for today. If it is higher (it can
            be, with an Apple Watch, when <Name>Group By</Name> was left at None and every sample of both
            devices was added up), set <Name>Group By</Name> to <Name>Day</Name>.
          </li>
          <li>Lost the phone? Remove its key above: the Shortcut on it stops working at once.</li>
        </ul>
      </div>
    </div>
  );
}
