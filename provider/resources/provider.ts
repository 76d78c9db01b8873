/**
 * The serialized providers: thin objects, one per kind, whose methods `require` the real
 * implementation at call time. They capture only the kind's name, so the text stored in every
 * resource's state stays small and holds no client, credential or library (PULUMI-NOTES).
 */
import * as pulumi from "@pulumi/pulumi";
import { ZoneKind } from "./specs";

/** A thin provider for one kind of the `handle` entry point (the zone kinds, and CachePurge). */
export function makeProvider(kind: ZoneKind | "CachePurge"): pulumi.dynamic.ResourceProvider {
  // `require` is resolved from the host's working directory, at call time; the text stays under 2 KB.
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

/** One shared instance per kind, so the SDK serializes each once (its cache is per instance). */
export const PROVIDERS: Readonly<Record<ZoneKind, pulumi.dynamic.ResourceProvider>> = {
  PullZone: makeProvider("PullZone"),
  PushZone: makeProvider("PushZone"),
  VodZone: makeProvider("VodZone"),
  LiveZone: makeProvider("LiveZone"),
};
