/**
 * What makes one stack instance's auto-names its own (issue 33). The organization, project and stack names are text
 * that two stacks share (a DIY backend's organization is always `organization`), so two people with a stack `dev` of
 * project `web` in two backends computed the same auto-names, and the take-back of a zone holding one's own auto-name
 * took the other's zones. A random id drawn once per stack instance, kept in its state by a small resource, joins
 * the names: only this stack's state knows it, so a zone holding an auto-name made with it was made by this stack.
 *
 * The resource is declared by the first zone of a program run, and every zone waits for it, so the host has learned
 * the id (and the zones the stack retired, `retired`, as `cdn-zones settle` records them) before any zone's check
 * (host/identity.ts): it names zones and decides take-backs with them, never with what a program sends. In the first
 * preview of a new stack its id, and so the auto-names, are unknown; from then on the preview shows the very names
 * its `up` creates.
 */
import * as pulumi from "@pulumi/pulumi";

/** The thin provider (providers/stack.ts): one instance, so the SDK serializes it once. */
const PROVIDER: pulumi.dynamic.ResourceProvider = require("./providers/stack");

/** The resource's name in every stack: one per stack, under the stack. */
export const STACK_ID_NAME = "cdn-zones-stack";

class StackId extends pulumi.dynamic.Resource {
  declare readonly nonce: pulumi.Output<string>;
  constructor() {
    super(PROVIDER, STACK_ID_NAME, { nonce: undefined }, {}, "cdn", "StackId");
  }
}

/** The StackId of each program run, keyed by the run's stack resource (tests run several programs in one process). */
const ids = new WeakMap<object, pulumi.Output<string>>();
let outsideRun: pulumi.Output<string> | undefined;

/** This stack instance's random id, declaring the resource that keeps it on first use in a program run. */
export function stackNonce(): pulumi.Output<string> {
  const run = pulumi.runtime.getStackResource();
  const known = run ? ids.get(run) : outsideRun;
  if (known) return known;
  const nonce = new StackId().nonce;
  if (run) ids.set(run, nonce);
  else outsideRun = nonce;
  return nonce;
}
