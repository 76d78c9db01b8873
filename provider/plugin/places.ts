/**
 * A plugin program's zones as a batch (resources/host/batch.ts), so a preview fails on every name clash in one run:
 * the engine stops at the first failed check (docs/pulumi-engine.md), so only the check completing the batch may fail.
 * The Python SDK sends each zone's place as the dynamic resources do (scripts/sdk-overlay.js). A Pulumi YAML
 * program's zones are known before it runs (no loops or conditions; each resource registered once), read here as its
 * host reads it (pulumi-yaml pkg/pulumiyaml/run.go, `LoadDir`: Main.json, Main.yaml, then Pulumi.yaml in the
 * program's folder, the plugin's working directory). Any other zone (Go, C#, a program not read) is in an open
 * batch: each check that finds a clash fails at once.
 */
import * as fs from "fs";
import * as path from "path";
import { SPECS } from "../resources/specs";

type Decl = Record<string, unknown>;

/** Keys lower-cased: pulumi-yaml matches a declaration's fields without regard to case. */
const lower = (v: unknown): Decl =>
  v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x])) : {};

/**
 * The resource names of the zones a YAML program in `dir` registers through the default provider (this process), or
 * undefined when that is not certain (not a YAML program, an explicit `cdn` provider, a name not written out).
 */
export function yamlZones(dir: string, load: (text: string) => unknown): string[] | undefined {
  const file = ["Main.json", "Main.yaml", "Pulumi.yaml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!file) return undefined;
  let doc: Decl;
  try {
    doc = lower(load(fs.readFileSync(file, "utf8")));
  } catch {
    return undefined;
  }
  const runtime = doc.runtime && typeof doc.runtime === "object" ? lower(doc.runtime).name : doc.runtime;
  if (file.endsWith("Pulumi.yaml") && runtime !== "yaml") return undefined;
  const names: string[] = [];
  for (const [key, value] of Object.entries(lower(doc.resources))) {
    const r = lower(value);
    const type = typeof r.type === "string" ? r.type : "";
    if (/^pulumi:providers:cdn$/.test(type)) return undefined;
    const kind = /^cdn:(?:index:)?(\w+)$/.exec(type)?.[1];
    if (!kind || !(kind in SPECS) || r.get !== undefined) continue;
    const options = lower(r.options);
    if (options.provider !== undefined || options.providers !== undefined || options.parent !== undefined)
      return undefined;
    if (r.name !== undefined && typeof r.name !== "string") return undefined;
    names.push(typeof r.name === "string" ? r.name : key);
  }
  return names;
}

/** Places for the zones of one deployment that arrive without one: `place(resourceName)` is its JSON text. */
export function placesFor(zones: string[] | undefined): (resource: string) => string {
  const known = new Map((zones ?? []).map((z, i) => [z, i]));
  let open = 0;
  return (resource) => {
    const seq = known.get(resource);
    if (seq !== undefined) return JSON.stringify({ resource, batch: "program", seq, count: known.size });
    return JSON.stringify({ resource, batch: "open", seq: open++, open: true });
  };
}
