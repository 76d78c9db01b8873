/**
 * One rule for the length of a zone's text: UTF-8 bytes, the strictest count a server may use (PHP's strlen). The
 * resources' check and the emulator measure and word it alike, so what the check lets through the emulator takes.
 */

/** How lengths are worded in messages: "at most 255 bytes long in UTF-8". */
export const LENGTH_UNIT = "bytes long in UTF-8";

/** The length of `s` by the rule: its UTF-8 bytes. */
export function textLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** Longest zone name: it becomes the first DNS label of the zone's delivery host name. */
export const MAX_NAME_LENGTH = 63;
/** Longest value of any other string field of a zone (label, origin, vhost, password...). */
export const MAX_TEXT_LENGTH = 255;
