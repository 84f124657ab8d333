/**
 * Tabs tell each other when the walker enables or disconnects tracking, so every open tab shows
 * the same choice and one of them counts.
 */
const TRACKING_CHANNEL = "charity-steps-tracking";

export interface TrackingMessage {
  type: "enabled" | "disconnected";
}

const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(TRACKING_CHANNEL);

export function tellOtherTabs(message: TrackingMessage): void {
  channel?.postMessage(message);
}

/** Calls `listener` with each message another tab sends. */
export function listenToOtherTabs(listener: (message: TrackingMessage) => void): void {
  channel?.addEventListener("message", (event: MessageEvent<TrackingMessage>) => listener(event.data));
}
