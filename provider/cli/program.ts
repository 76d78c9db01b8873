/**
 * The program `cdn-zones import` writes: one resource per zone with its listed fields, an explicit
 * `name` and `adopt: true`, passwords from the stack's secret config. Pure text from rows, so it is
 * tested without an account; the output compiles under `tsc --strict`. Server values enter the text
 * only through codeText.ts, and a zone whose name the resources' check refuses is left out.
 */
import { kindInfo, perKind, ZONE_KINDS, type ZoneKind } from "../api/kinds";
import { specOf } from "../resources/specs";
import { fieldProblem } from "../resources/host/validate";
import { comment, literal } from "./codeText";
import { IdentifierPool, ResourceNamePool } from "./names";

/** A zone as listZones returned it (wire keys), with its kind. */
export interface ListedZone {
  kind: ZoneKind;
  row: Record<string, unknown>;
}

/** A password the program reads from config, and the zone it belongs to (for the `pulumi config set` hint). */
export interface PasswordSetting {
  configKey: string;
  kind: ZoneKind;
  zoneName: string;
}

/** A listed zone left out of the program: the resource's check would refuse its name. */
export interface SkippedZone {
  kind: ZoneKind;
  /** The listed id, as the server sent it. */
  id: unknown;
  /** The listed name, as the server sent it (possibly not a string, possibly huge). */
  name: unknown;
  /** Why the check refuses the name, in its own words. */
  reason: string;
}

export interface GeneratedProgram {
  text: string;
  passwords: PasswordSetting[];
  /** Zones declared, by kind. */
  counts: Record<ZoneKind, number>;
  /** Zones not declared, in the order listed. */
  skipped: SkippedZone[];
}

/** Code-point order: the same on every machine, unlike `localeCompare`. */
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Why `kind`'s check would refuse the listed `name`, or undefined. Declaring such a zone could only fail
 * its first preview, and the name becomes identifiers, a resource name and a comment: only names the
 * resources accept reach the program.
 */
function nameProblem(kind: ZoneKind, name: unknown): string | undefined {
  const field = specOf(kind).fields.find((f) => f.input === "name")!;
  return fieldProblem(field, name);
}

/** The inputs a listed row can give: listed, not secret, with a non-empty value. */
function listedInputs(kind: ZoneKind, row: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const f of specOf(kind).fields) {
    if (!f.listed || f.secret || f.input === "name") continue;
    const v = row[f.wire];
    // An empty value is the API's "not set": declaring "" would fail the field's check.
    if (v === undefined || v === null || v === "") continue;
    out.push([f.input, String(v)]);
  }
  return out;
}

/**
 * Renders the program for `zones` (already filtered). `header` lines become the opening comment
 * (where the zones came from); the order is kind, then name, so a re-import diffs cleanly.
 */
export function renderProgram(zones: readonly ListedZone[], header: readonly string[] = []): GeneratedProgram {
  const skipped: SkippedZone[] = [];
  const valid = zones.filter((z) => {
    const reason = nameProblem(z.kind, z.row.name);
    if (reason) skipped.push({ kind: z.kind, id: z.row.id, name: z.row.name, reason });
    return !reason;
  });
  const sorted = [...valid].sort(
    (a, b) =>
      ZONE_KINDS.indexOf(a.kind) - ZONE_KINDS.indexOf(b.kind) ||
      byCodePoint(String(a.row.name), String(b.row.name)) ||
      Number(a.row.id) - Number(b.row.id),
  );
  const vars = new IdentifierPool();
  const names = new ResourceNamePool();
  const passwords: PasswordSetting[] = [];
  const counts = perKind(() => 0);
  const blocks: string[] = [];
  const variables: string[] = [];
  for (const z of sorted) {
    const spec = specOf(z.kind);
    const zoneName = String(z.row.name);
    const variable = vars.take(z.kind, zoneName);
    const lines = [`  name: ${literal(zoneName)},`];
    for (const [input, value] of listedInputs(z.kind, z.row)) lines.push(`  ${input}: ${literal(value)},`);
    if (spec.fields.some((f) => f.input === "password")) {
      const configKey = `${variable}Password`;
      passwords.push({ configKey, kind: z.kind, zoneName });
      lines.push(`  password: config.requireSecret(${literal(configKey)}),`);
    }
    lines.push("  adopt: true,");
    counts[z.kind]++;
    variables.push(variable);
    blocks.push(
      `${comment(`${spec.label} '${zoneName}' (id ${String(z.row.id)})`)}\nconst ${variable} = new ${spec.type}(${literal(names.take(spec.type, zoneName))}, {\n${lines.join("\n")}\n});`,
    );
  }
  const classes = ZONE_KINDS.filter((k) => counts[k] > 0).map((k) => kindInfo(k).type);
  const text = [
    ...header.map(comment),
    ...(passwords.length ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    ...(classes.length ? [`import { ${classes.join(", ")} } from "pulumi-cdn-zones";`] : []),
    "",
    ...(passwords.length
      ? [
          "// Passwords cannot be read from the API: each comes from the stack's secret config.",
          "const config = new pulumi.Config();",
          "",
        ]
      : []),
    blocks.join("\n\n"),
    "",
    // Exported ids keep every variable used (noUnusedLocals) and show what was adopted.
    variables.length
      ? `export const zoneIds = {\n${variables.map((v) => `  ${v}: ${v}.zoneId,`).join("\n")}\n};`
      : "export {};",
    "",
  ].join("\n");
  return { text, passwords, counts, skipped };
}
