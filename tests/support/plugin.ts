/**
 * The provider plugin's programs for the engine tests: a Pulumi YAML program of zones (the project file is the
 * program), the plugin found through the project's `plugins: providers:` (provider/bin/pulumi-resource-cdn, the
 * built package), and the steps on its resources.
 */
import * as path from "path";
import type { EngineStep } from "./engine";

export const PLUGIN_DIR = path.resolve(__dirname, "../../provider/bin");

/** A resource of a YAML program: its type's last part, name, properties and options. */
export interface YamlResource {
  type: "PullZone" | "PushZone" | "VodZone" | "LiveZone" | "CachePurge";
  name: string;
  properties?: Record<string, unknown>;
  options?: Record<string, unknown>;
}

/**
 * A Pulumi.yaml (after its `name:`) declaring `resources`, each exported as `{ zoneId, name }` (`purgeCount` for a
 * purge), with `extra` appended under `resources:` as it is (the code `pulumi import` wrote), and `more` after.
 */
export function yamlProgram(resources: YamlResource[], extra = "", more = ""): string {
  const lines = [
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: cdn",
    `      path: ${PLUGIN_DIR}`,
    "resources:",
  ];
  for (const r of resources) {
    lines.push(`  ${r.name}:`, `    type: cdn:index:${r.type}`);
    if (r.properties) lines.push(`    properties: ${JSON.stringify(r.properties)}`);
    if (r.options) lines.push(`    options: ${JSON.stringify(r.options)}`);
  }
  if (extra) lines.push(extra.replace(/\s+$/, ""));
  lines.push("outputs:");
  for (const r of resources) {
    const fields = r.type === "CachePurge" ? ["purgeCount"] : ["zoneId", "name"];
    lines.push(`  ${r.name}:`, ...fields.map((f) => `    ${f}: \${${r.name}.${f}}`));
  }
  return `${lines.join("\n")}\n${more}`;
}

/** The engine's steps on the plugin's resources as `<op> <name>`, sorted. */
export const pluginOps = (steps: EngineStep[]): string[] =>
  steps
    .filter((s) => s.type.startsWith("cdn:index:"))
    .map((s) => `${s.op} ${s.name}`)
    .sort();

/** The resources block of the code `pulumi import --out` wrote (a YAML program), without its `resources:` line. */
export function importedResources(code: string): string {
  const at = code.indexOf("resources:\n");
  if (at < 0) throw new Error(`no resources in the imported code:\n${code}`);
  return code.slice(at + "resources:\n".length);
}
