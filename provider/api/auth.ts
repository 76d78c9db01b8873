import { createHash } from "crypto";
import { DateTime } from "luxon";

/** The time zone §5 requires for `currentDate`. */
export const AUTH_TIME_ZONE = "America/Los_Angeles";
/** How long the service accepts an authString after its `currentDate` (§5.5, §8). */
export const AUTH_WINDOW_MS = 10 * 60 * 1000;

/**
 * The `currentDate` parameter: the given instant in Pacific time with its numeric offset and no
 * fractional seconds (`2026-11-21T10:34:09-08:00`), as §5.3 asks.
 */
export function currentDate(now: Date | number = Date.now()): string {
  const ms = typeof now === "number" ? now : now.getTime();
  // The text only changes once a second, and luxon's time-zone formatting costs more than the
  // rest of a call's client-side work: reuse the last second's text.
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = DateTime.fromMillis(second * 1000, { zone: AUTH_TIME_ZONE }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
    lastSecond = second;
  }
  return lastText;
}
let lastSecond = NaN;
let lastText = "";

/** The authString of §5.4: lowercase hex SHA-256 of `<currentDate>:<apiKey>:<method without group>`. */
export function authString(date: string, apiKey: string, method: string): string {
  const bare = method.includes(".") ? method.slice(method.lastIndexOf(".") + 1) : method;
  return createHash("sha256").update(`${date}:${apiKey}:${bare}`, "utf8").digest("hex");
}
