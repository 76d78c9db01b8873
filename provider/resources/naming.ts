/**
 * Default zone names: `<resource name>-<7 letters or digits>`, derived in the program from the stack, the stack
 * instance's random id (stackId.ts) and the resource name (so a preview shows the name its `up` creates), and taken
 * by check only when no name is declared or stored. Only this stack computes it, so create takes back a zone holding
 * it (docs/resources.md, "Interrupted deployments").
 */
import { createHash } from "crypto";

/** The hidden input carrying the auto-name candidate from the program to check. */
export const AUTO_NAME = "__autoName";

/** Whether the inputs' name is the resource's own auto-name (check keeps the candidate beside it then). */
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
