/**
 * The zone kinds as the tests name them: the resource class (`PullZone`), the emulator's and API's
 * group (`pullzone`), and the list of all four, written once instead of in every test file.
 */

/** A zone resource class name. */
export type Kind = "PullZone" | "PushZone" | "VodZone" | "LiveZone";
/** The API group (and emulator store) of a kind. */
export type Group = "pullzone" | "pushzone" | "vodzone" | "livezone";

/** Every zone kind, in the order the tests declare them. */
export const KINDS: Kind[] = ["PullZone", "PushZone", "VodZone", "LiveZone"];
/** The API group of each kind. */
export const GROUP: Record<Kind, Group> = {
  PullZone: "pullzone",
  PushZone: "pushzone",
  VodZone: "vodzone",
  LiveZone: "livezone",
};
/** Kinds whose zones the API cannot delete (retained on delete by default). */
export const RETAINED_KINDS: Kind[] = ["PullZone", "PushZone", "VodZone"];
