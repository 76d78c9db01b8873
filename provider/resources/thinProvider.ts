/**
 * The serialized providers: thin objects, one per kind, whose methods `require` the real
 * implementation at call time. They capture only the kind's name, so the text stored in every
 * resource's state stays small and holds no client, credential or library (docs/engine-fidelity.md, "Facts
 * about dynamic providers"). This module imports nothing of the package at run time (only a type), so
 * providers/<kind>.ts can load it without a cycle.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ZoneType } from "../api/kinds";

/** A thin provider for one kind of the `handle` entry point (the zone kinds, and CachePurge). */
export function makeProvider(kind: ZoneType | "CachePurge"): pulumi.dynamic.ResourceProvider {
  // `require` is resolved from the host's working directory, at call time. Serialized by value (a linked
  // checkout) the text stays under 2 KB; an installed package's state stores only a `require` of providers/<kind>.
  const h = (op: string, a: unknown[]) => require("pulumi-cdn-zones/h").handle(1, kind, op, a);
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
