/**
 * The module path a resource's state stores for its provider must load wherever the state is run. The
 * SDK's serializer writes `require("pulumi-cdn-zones/p/pull")` through the package's exports map when it
 * can read that map, which it finds by resolving the package from the SDK's own folder; where it cannot
 * (the SDK and the package installed in different node_modules trees: a hoisted monorepo, pnpm), it writes
 * the file's path, `pulumi-cdn-zones/dist/resources/providers/pull.js`, which must load too.
 */
import * as path from "path";

const pkg = require("../../provider/package.json") as { exports: Record<string, unknown> };
const { getModuleFromPath } = require("@pulumi/pulumi/runtime/closure/package") as {
  getModuleFromPath(p: string, def?: unknown): string;
};
const KINDS = ["pull", "push", "vod", "live", "purge"];

test("with the exports map at hand, the serializer writes the short path", () => {
  for (const k of KINDS)
    expect(getModuleFromPath(`pulumi-cdn-zones/dist/resources/providers/${k}.js`, pkg)).toBe(`pulumi-cdn-zones/p/${k}`);
});

test("without it, the file's own path, which the exports map lets load: the same module", () => {
  for (const k of KINDS) {
    const short = require.resolve(`pulumi-cdn-zones/p/${k}`);
    expect(require.resolve(`pulumi-cdn-zones/dist/resources/providers/${k}.js`)).toBe(short);
    expect(path.basename(short)).toBe(`${k}.js`);
  }
});
