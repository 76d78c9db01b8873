/**
 * Default zone names as Pulumi users expect them: a resource without `name` gets
 * `<resource name>-<7 lowercase letters or digits>`, so two stacks of one program in one account
 * never want the same zone. The candidate is computed in the program from the stack's identity
 * (organization, project, stack, kind, the parent's URN when the parent is not the stack, resource
 * name) and handed to check as `__autoName`; check takes it only when neither the program nor the
 * stored inputs hold a name, so a name once chosen (or stored by a version that defaulted to the
 * resource name) is never replaced. Deriving the suffix from the stack rather than drawing it in
 * check lets the preview of a pull request show the very name the merge's `up` creates.
 *
 * It also makes the name this resource's own: no other resource of any stack gets it. Check keeps
 * the candidate beside the name while the name is the candidate, and create takes back a zone of
 * that name that exists already: one made by an `up` of this stack that stopped before recording
 * it (docs/resources.md, "Interrupted deployments").
 */
import { createHash } from "crypto";

/** The hidden input carrying the auto-name candidate from the program to check. */
export const AUTO_NAME = "__autoName";

/** Whether the inputs' name is the resource's own auto-name (check keeps the candidate beside it then). */
export function isOwnAutoName(inputs: Record<string, unknown>): boolean {
  return typeof inputs[AUTO_NAME] === "string" && inputs[AUTO_NAME] !== "" && inputs[AUTO_NAME] === inputs.name;
}

/**
 * The hidden input telling check, for a new zone, which of the account's zones this stack named and
 * which resources the program declares: the stack's identity (organization, project, stack, kind),
 * the resource's own name and its aliases' names, and the zone's place in the batch of zones of its
 * kind that one synchronous run of the program declared (zoneResource.ts, `enrol`). Every zone's check
 * records its names, so once a batch has been checked whole, check knows every resource name the
 * program declared of the kind without any zone carrying them all. Unlike `__autoName`, check never
 * keeps it in the stored inputs. It lets check name a zone that a rename without `aliases` leaves
 * behind, and find the zone of a `--replace` target whose stored name check cannot see (renames.ts):
 * a preview never calls the delete of the resource a rename replaced.
 */
export const AUTO_NAME_SCOPE = "__autoNameScope";

/** What `__autoNameScope` holds, as JSON text, once the program's inputs are resolved. */
export interface AutoNameScope {
  stack: string[];
  resource: string;
  /** The names this resource's `aliases` give. */
  aliases: string[];
  /** The random id of the batch of zones of this kind the program declared in one synchronous run. */
  batch: string;
  /** This zone's position in its batch, from 0. */
  seq: number;
  /** How many zones the batch holds: carried by the batch's first zone only (zoneResource.ts, `scopeText`). */
  count?: number;
}

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

/**
 * The resource name this stack gave `zoneName` as its auto-name (`site` for `site-264cdhy`), or undefined
 * when the zone is no auto-name of this stack. Only resource names that are already DNS labels can be
 * recognised (the name before the suffix must rebuild the very same zone name).
 */
export function autoNameOwner(zoneName: string, stackIdentity: readonly string[]): string | undefined {
  const cut = zoneName.length - SUFFIX_LENGTH - 1;
  if (cut < 1 || zoneName[cut] !== "-") return undefined;
  const base = zoneName.slice(0, cut);
  return autoName(base, stackIdentity) === zoneName ? base : undefined;
}
