import type { Badge } from "@charity-steps/shared-types";
import { useEffect } from "react";
import { toast, whenNoToastIsOpen } from "../../lib/toast-store";
import { useBadges } from "./use-badges";

/** The newest badge award this device has announced, by walker (ISO 8601). */
const ANNOUNCED_KEY = "charity-steps:badges-announced";
/** On a device that has announced nothing yet, badges earned this recently are still news. */
const NEWS_FOR_MS = 24 * 3_600_000;
/** The dashboard asks again this often: a badge is awarded a few seconds after the steps arrive. */
const BADGES_REFRESH_MS = 60_000;

/** The badges to announce: earned after the last one announced (or lately, on a new device). */
export function badgesToAnnounce(
  items: readonly Badge[],
  announcedUpTo: string | null,
  now: number,
): Badge[] {
  const since = announcedUpTo === null ? new Date(now - NEWS_FOR_MS).toISOString() : announcedUpTo;
  return items
    .filter((badge) => badge.earnedAt !== null && badge.earnedAt > since)
    .sort((a, b) => (a.earnedAt ?? "").localeCompare(b.earnedAt ?? ""));
}

/** Says "New badge: …" once for each badge newly earned, on the dashboard. Shows nothing itself. */
export function BadgeAnnouncer({ userId }: { userId: string }) {
  const badges = useBadges({ refetchInterval: BADGES_REFRESH_MS });
  const items = badges.data?.items;
  useEffect(() => {
    if (!items) return;
    const news = badgesToAnnounce(items, announcedUpTo(userId), Date.now());
    const latest = news.at(-1);
    if (!latest?.earnedAt) return;
    const latestAt = latest.earnedAt;
    return whenNoToastIsOpen(() => {
      if ((announcedUpTo(userId) ?? "") >= latestAt) return;
      rememberAnnounced(userId, latestAt);
      toast({
        title: news.length === 1 ? `New badge: ${latest.name}` : `${news.length} new badges`,
        description:
          news.length === 1
            ? latest.description
            : `${news.map((badge) => badge.name).join(", ")}. See them on Account.`,
      });
    });
  }, [items, userId]);
  return null;
}

function announcedUpTo(userId: string): string | null {
  try {
    const saved = JSON.parse(localStorage.getItem(ANNOUNCED_KEY) ?? "{}") as Record<string, string>;
    return saved[userId] ?? null;
  } catch {
    return null;
  }
}

function rememberAnnounced(userId: string, earnedAt: string): void {
  try {
    localStorage.setItem(ANNOUNCED_KEY, JSON.stringify({ [userId]: earnedAt }));
  } catch {
    // Storage refused: the badge may be announced again on the next visit, which harms nobody.
  }
}
