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
import type * as pulumi from "@pulumi/pulumi";

/** The thin provider (providers/stack.ts): one instance, so the SDK serializes it once. */
const PROVIDER: pulumi.dynamic.ResourceProvider = require("./providers/stack");

/** The resource's type and name in every stack: one per stack, under the stack. */
export const STACK_ID = { type: "StackId", name: "cdn-zones-stack" } as const;
/** Every StackId of any project and stack: a glob `pulumi up --target` takes (cli/settle.ts). */
export const STACK_ID_TARGET = `urn:pulumi:*::*::pulumi-nodejs:dynamic/cdn:${STACK_ID.type}::${STACK_ID.name}`;
/** Whether a state's resource type (`pulumi-nodejs:dynamic/cdn:StackId`) is a StackId's. */
export const isStackId = (type: unknown): boolean => typeof type === "string" && type.endsWith(`:${STACK_ID.type}`);
/** The stack, its providers and its StackId: bookkeeping every zone program has, no change a reviewer approves. */
export const isBookkeeping = (type: string): boolean =>
  type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:") || isStackId(type);

/** The StackId of each program run, keyed by the run's stack resource (tests run several programs in one process). */
const ids = new WeakMap<object, pulumi.Output<string>>();
let outsideRun: pulumi.Output<string> | undefined;

/** This stack instance's random id, declaring the resource that keeps it on first use in a program run. */
export function stackNonce(): pulumi.Output<string> {
  // Required here: the CLI and the host read the names above without loading the SDK (seconds, under load).
  const { dynamic, runtime }: typeof pulumi = require("@pulumi/pulumi");
  const run = runtime.getStackResource();
  const known = run ? ids.get(run) : outsideRun;
  if (known) return known;
  class StackId extends dynamic.Resource {
    declare readonly nonce: pulumi.Output<string>;
  }
  const nonce = new StackId(PROVIDER, STACK_ID.name, { nonce: undefined }, {}, "cdn", STACK_ID.type).nonce;
  if (run) ids.set(run, nonce);
  else outsideRun = nonce;
  return nonce;
}
