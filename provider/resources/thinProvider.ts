/**
 * The serialized providers: thin objects, one per kind, whose methods `require` the real
 * implementation at call time. They capture only the kind's name, so the text stored in every
 * resource's state stays small and holds no client, credential or library (docs/pulumi-engine.md, "Facts
 * about dynamic providers"). This module imports nothing of the package at run time (only a type), so
 * providers/<kind>.ts can load it without a cycle.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ZoneType } from "../api/kinds";

/**
 * A thin provider for one kind of the entry point of host/handlers.ts (the zone kinds, and CachePurge): each method
 * is `h(op, a)`, which calls that module's `v1(kind, op, a)`, the entry of handler protocol 1, with the operation and
 * the arguments the host passed. `require` is resolved from the host's working directory, at call time. Serialized
 * by value (a linked checkout) this function's text is stored in every resource's state, so no comment goes inside
 * it and its names are one letter, to stay under 2 KB; an installed package's state stores only a `require` of
 * providers/<kind>.
 */
export function makeProvider(kind: ZoneType | "CachePurge"): pulumi.dynamic.ResourceProvider {
  const h = (op: string, a: unknown[]) => require("pulumi-cdn-zones/h").v1(kind, op, a);
  return {
    configure: (...a) => h("configure", a),
    check: (...a) => h("check", a),
    diff: (...a) => h("diff", a),
    create: (...a) => h("create", a),
    read: (...a) => h("read", a),
    update: (...a) => h("update", a),
    delete: (...a) => h("delete", a),
  };
}
