import {
  NOTIFICATION_KIND_NAMES,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
  PUSH_KEY_PATH,
  PUSH_SUBSCRIPTION_PATH,
  PUSH_SUBSCRIPTIONS_PATH,
} from "@charity-steps/shared-types";
import { BellRing } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { toast } from "../../lib/toast-store";
import { useNotificationPreferences, useSaveNotificationPreferences } from "./use-notifications";

/** Where this browser keeps the id the server gave its subscription, to turn it off again. */
const SUBSCRIPTION_ID_KEY = "charity-steps:push-subscription-id";

type QuietHours = NotificationPreferences["quietHours"];

type KindsUpdate = Partial<Record<NotificationKind, { push?: boolean; email?: boolean }>>;

type PushState = "unsupported" | "blocked" | "off" | "on" | "working";

/**
 * The Account page's Notifications section: push on this device (the browser asks for permission
 * only when the walker taps the button, never on load), a switch per kind and channel, the streak
 * reminder's time and quiet hours.
 */
export function NotificationSettings() {
  const preferences = useNotificationPreferences();
  const save = useSaveNotificationPreferences();
  const [push, setPush] = useState<PushState>("working");
  // A switch moves under the finger at once; the server's answer then replaces it.
  const [moved, setMoved] = useState<Record<string, boolean>>({});

  useEffect(() => {
    void currentPushState().then(setPush);
  }, []);

  // Each change hears its own answer: `mutate`'s callbacks would go to the latest change only, and
  // a switch or time changed while another's answer is on its way would never hear it settle.
  const change = (
    update: NotificationPreferencesUpdate,
    { onSettled, onSuccess }: { onSettled?: () => void; onSuccess?: () => void } = {},
  ) =>
    void save
      .mutateAsync(update)
      .then(
        () => onSuccess?.(),
        (error: unknown) =>
          toast({
            title: "Not saved",
            description: serverMessage(error, "Your change could not be saved."),
            variant: "destructive",
          }),
      )
      .finally(onSettled);
  // Quiet hours are saved as a pair: an end left while the other end's save is on its way is sent
  // with that end's new time, not the one the server last answered.
  const quietOnItsWay = useRef<QuietHours | null>(null);
  const changeQuietHours = (quiet: Partial<QuietHours>, settled: Settled) => {
    const current = preferences.data?.quietHours;
    if (!current) return;
    const pair = { ...(quietOnItsWay.current ?? current), ...quiet };
    quietOnItsWay.current = pair;
    change(
      { quietHours: pair },
      {
        onSuccess: settled.onSuccess,
        onSettled: () => {
          if (quietOnItsWay.current === pair) quietOnItsWay.current = null;
          settled.onSettled();
        },
      },
    );
  };

  const turnOn = async () => {
    setPush("working");
    try {
      setPush(await subscribe());
    } catch (error) {
      setPush(await currentPushState());
      toast({
        title: "Notifications not turned on",
        description: serverMessage(error, "This browser could not turn them on."),
        variant: "destructive",
      });
    }
  };
  const turnOff = async () => {
    setPush("working");
    await unsubscribe().catch(() => undefined);
    setPush(await currentPushState());
  };

  const prefs = preferences.data;
  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby="notification-settings-title">
      <h2 id="notification-settings-title" className="text-lg font-semibold [overflow-wrap:anywhere]">
        <BellRing aria-hidden="true" className="mr-2 inline size-5 align-[-0.2em] text-brand-strong" />
        Notifications
      </h2>
      <div data-testid="push-state">
        {push === "unsupported" && (
          <p className="text-muted">
            This browser cannot show notifications. On an iPhone, add Charity Steps to your Home Screen
            (Share, then Add to Home Screen) and open it from there.
          </p>
        )}
        {push === "blocked" && (
          <p className="text-muted">
            Notifications are blocked for Charity Steps in this browser's settings. Allow them there, then
            come back.
          </p>
        )}
        {(push === "off" || push === "working") && (
          <button type="button" className="btn-primary" disabled={push === "working"} onClick={turnOn}>
            Turn on notifications on this device
          </button>
        )}
        {push === "on" && (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p>Notifications are on for this device.</p>
            <button type="button" className="btn-secondary" onClick={turnOff}>
              Turn off on this device
            </button>
          </div>
        )}
      </div>
      {prefs && (
        <>
          <p className="text-sm text-muted">Tell me when:</p>
          <ul className="divide-y divide-line border-y border-line" aria-label="What to be told, and how">
            {NOTIFICATION_KINDS.map((kind) => (
              <li key={kind} className="flex flex-wrap items-center justify-between gap-x-4 py-1">
                <span className="min-w-0 basis-full pt-1 [overflow-wrap:anywhere] sm:flex-1 sm:basis-auto sm:pt-0">
                  {NOTIFICATION_KIND_NAMES[kind]}
                </span>
                <span className="flex flex-wrap gap-x-4">
                  {(["push", "email"] as const).map((channel) => (
                    <label key={channel} className="flex min-h-11 cursor-pointer items-center gap-2">
                      <input
                        type="checkbox"
                        className="size-6 accent-[var(--color-brand-strong)]"
                        aria-label={`${NOTIFICATION_KIND_NAMES[kind]}: ${channel}`}
                        checked={moved[`${kind}.${channel}`] ?? prefs.kinds[kind][channel]}
                        onChange={(event) => {
                          const key = `${kind}.${channel}`;
                          const on = event.target.checked;
                          setMoved((shown) => ({ ...shown, [key]: on }));
                          change(
                            { kinds: { [kind]: { [channel]: on } } as KindsUpdate },
                            {
                              onSettled: () => setMoved(({ [key]: _settled, ...others }) => others),
                            },
                          );
                        }}
                      />
                      {channel === "push" ? "Push" : "Email"}
                    </label>
                  ))}
                </span>
              </li>
            ))}
          </ul>
          <TimeSetting
            label="Streak reminder at"
            value={prefs.reminderTime}
            save={(time, settled) => change({ reminderTime: time }, settled)}
          />
          <fieldset className="min-w-0 space-y-2">
            <legend>Quiet hours (pushes wait until they end; a new sign-in does not)</legend>
            <div className="flex flex-wrap gap-4">
              <TimeSetting
                label="From"
                value={prefs.quietHours.start}
                save={(time, settled) => changeQuietHours({ start: time }, settled)}
              />
              <TimeSetting
                label="to"
                value={prefs.quietHours.end}
                save={(time, settled) => changeQuietHours({ end: time }, settled)}
              />
            </div>
            <p className="text-sm text-muted">The same time twice turns quiet hours off.</p>
          </fieldset>
        </>
      )}
    </section>
  );
}

/** What a save tells the one who asked for it. */
interface Settled {
  onSuccess: () => void;
  onSettled: () => void;
}

/**
 * A time the walker sets. A time input reports every segment as it is typed (06:30 passes through
 * 06:03 on its way), so what is typed stays here and is saved once, when the walker leaves the
 * field or presses Enter; Escape puts the saved time back. "Saved" says the server has it.
 */
function TimeSetting({
  label,
  value,
  save,
}: {
  label: string;
  value: string;
  save: (time: string, settled: Settled) => void;
}) {
  const [draft, setDraft] = useState(value);
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  // The server's time (its answer, a refusal's, another tab's change) shows here unless the
  // walker is typing or their time is on its way.
  useEffect(() => {
    if (!editing && !saving) setDraft(value);
  }, [value, editing, saving]);

  const commit = () => {
    setEditing(false);
    if (saving || !draft || draft === value) return;
    setSaving(true);
    save(draft, { onSuccess: () => setSaved(true), onSettled: () => setSaving(false) });
  };
  return (
    <span className="flex max-w-full flex-wrap items-center gap-2">
      <label className="flex max-w-full flex-wrap items-center gap-2">
        {label}
        <input
          type="time"
          className="field w-40 max-w-full min-w-0"
          value={draft}
          onFocus={() => setEditing(true)}
          onChange={(event) => {
            setEditing(true);
            setSaved(false);
            setDraft(event.target.value);
          }}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === "Enter") event.currentTarget.blur();
            if (event.key === "Escape") setDraft(value);
          }}
        />
      </label>
      <span role="status" className="text-sm text-muted">
        {saved ? "Saved" : ""}
      </span>
    </span>
  );
}

function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function currentPushState(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && localStorage.getItem(SUBSCRIPTION_ID_KEY) ? "on" : "off";
}

/** Asks for permission (the walker tapped), subscribes this browser, and tells the server. */
async function subscribe(): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "blocked" : "off";
  const { publicKey } = (await (await apiRequest("GET", PUSH_KEY_PATH)).json()) as { publicKey: string };
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: base64UrlBytes(publicKey),
  });
  const response = await apiRequest("POST", PUSH_SUBSCRIPTIONS_PATH, subscription.toJSON());
  const { id } = (await response.json()) as { id: string };
  localStorage.setItem(SUBSCRIPTION_ID_KEY, id);
  return "on";
}

async function unsubscribe(): Promise<void> {
  const id = localStorage.getItem(SUBSCRIPTION_ID_KEY);
  localStorage.removeItem(SUBSCRIPTION_ID_KEY);
  const registration = await navigator.serviceWorker.getRegistration();
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
  if (id) await apiRequest("DELETE", PUSH_SUBSCRIPTION_PATH.replace(":id", id));
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}
