/**
 * Default zone names as Pulumi users expect them: a resource without `name` gets
 * `<resource name>-<7 lowercase letters or digits>`. The candidate is computed in the program from the
 * stack (organization, project, stack, kind, the parent's URN when the parent is not the stack), the
 * stack instance's random id (stackId.ts) and the resource name, and handed to check as `__autoName`;
 * check takes it only when neither the program nor the stored inputs hold a name, so a name once chosen
 * (or stored by an earlier version) is never replaced. Deriving the suffix rather than drawing it in
 * check lets the preview of a pull request show the very name the merge's `up` creates.
 *
 * The random id makes the name this stack instance's own: another stack, even of the same organization,
 * project and stack name in another backend, never computes it. Check keeps the candidate beside the name
 * while the name is the candidate, and create takes back a zone of that name that exists already: one made
 * by an `up` of this stack that stopped before recording it (docs/resources.md, "Interrupted deployments").
 */
import { createHash } from "crypto";

/** The hidden input carrying the auto-name candidate from the program to check. */
export const AUTO_NAME = "__autoName";

/** Whether the inputs' name is the resource's own auto-name (check keeps the candidate beside it then). */
export function isOwnAutoName(inputs: Record<string, unknown>): boolean {
  return typeof inputs[AUTO_NAME] === "string" && inputs[AUTO_NAME] !== "" && inputs[AUTO_NAME] === inputs.name;
}

/**
 * The hidden input carrying the zone's place in the batch of zones one synchronous run of the program declared
 * (zoneResource.ts, `enrol`; resources/host/batch.ts): the resource name, the position, the batch's size. Check
 * reads it and never keeps it in the stored inputs.
 */
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
