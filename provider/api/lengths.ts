/**
 * One rule for the length of the text a zone holds (its name, password, label, origin...): UTF-8
 * bytes. It is how a server that counts bytes (PHP's strlen, a byte-sized column) measures, and the
 * strictest count a server may use: text within a limit in bytes is within it in UTF-16 units and
 * in characters too. The resources' check and the emulator both measure with {@link textLength}
 * and word it with {@link LENGTH_UNIT}, so a value check lets through is never refused for its
 * length by the emulator (128 emoji are 512 bytes: refused by both, in the same words).
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
