/**
 * The serialized provider of CachePurge: the same thin shape as the zone kinds' (resources/provider.ts),
 * so the text stored in every CachePurge's state stays small and holds no client, credential or library.
 */
import * as pulumi from "@pulumi/pulumi";


/** One shared instance, so the SDK serializes it once (its cache is per instance). */
export const CACHE_PURGE_PROVIDER: pulumi.dynamic.ResourceProvider = require("../resources/providers/purge");
