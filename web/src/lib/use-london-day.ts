import { londonDay } from "@charity-steps/shared-types";
import { useEffect, useState } from "react";

/** Today's London date, updated within a minute of midnight. */
export function useLondonDay(): string {
  const [day, setDay] = useState(() => londonDay());
  useEffect(() => {
    const timer = setInterval(() => setDay(londonDay()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return day;
}
