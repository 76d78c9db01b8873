/**
 * The serialized provider of CachePurge, in the shape of resources/provider.ts: a thin object whose
 * methods `require("pulumi-cdn-zones/h")` at call time and capture only the kind's name, so the
 * text stored in every CachePurge's state stays small and holds no client, credential or library.
 */
import * as pulumi from "@pulumi/pulumi";

function makeProvider(kind: string): pulumi.dynamic.ResourceProvider {
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

/** One shared instance, so the SDK serializes it once (its cache is per instance). */
export const CACHE_PURGE_PROVIDER: pulumi.dynamic.ResourceProvider = makeProvider("CachePurge");
