/**
 * Default zone names: `<resource name>-<7 letters or digits>`, a hash of the stack, the resource and the stack
 * instance's random id (stackId.ts), taken by check only when no name is declared or stored. The program says which
 * resource it is; the host adds the id it learned itself (host/identity.ts), so only this stack computes the name,
 * and create takes back a zone holding it (docs/resources.md, "Interrupted deployments").
 */
import { createHash } from "crypto";

/**
 * The hidden input saying which resource a zone is, from the program to check: `[...stack parts, resource name]`.
 * It also makes every zone wait for the stack instance's resource. Check stores the auto-name it made under it.
 */
export const AUTO_NAME = "__autoName";

/** Whether the checked inputs' name is the resource's own auto-name (check stored it beside the name). */
export function isOwnAutoName(inputs: Record<string, unknown>): boolean {
  return typeof inputs[AUTO_NAME] === "string" && inputs[AUTO_NAME] !== "" && inputs[AUTO_NAME] === inputs.name;
}

/** The hidden input carrying the zone's place in its batch (host/batch.ts); check never stores it. */
export const AUTO_NAME_SCOPE = "__autoNameScope";

const SUFFIX_LENGTH = 7;
const MAX_NAME = 63;

/** The auto-name of a resource: its name made a DNS label, a hyphen and a suffix unique to the stack. */
export function autoName(resourceName: string, stackIdentity: readonly string[]): string {
  const digest = createHash("sha256")
    .update([...stackIdentity, resourceName].join("\0"))
    .digest();
  let suffix = "";
  for (let i = 0; suffix.length < SUFFIX_LENGTH; i++) suffix += (digest[i] % 36).toString(36);
  let base = resourceName
    .replace(/[^A-Za-z0-9-]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, MAX_NAME - SUFFIX_LENGTH - 1)
    .replace(/-+$/, "");
  if (base === "") base = "zone";
  return `${base}-${suffix}`;
}
