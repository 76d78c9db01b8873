/**
 * The program `cdn-zones import` writes: one resource per zone with its listed fields, an explicit
 * `name` and `adopt: true`, passwords from the stack's secret config. Pure text from rows, so it is
 * tested without an account; the output compiles under `tsc --strict`. Server values enter the text
 * only through `literal`, and a zone whose name the resources' check refuses is left out.
 */
import { kindInfo, perKind, ZONE_KINDS, type ZoneKind } from "../api/kinds";
import { printable } from "../api/terminalText";
import { specOf } from "../resources/specs";
import { fieldProblem } from "../resources/host/validate";

/**
 * `s` as a one-line string literal, for literals and comments alike: JSON's escapes, then api/terminalText.ts's for
 * DEL, C1, U+2028/U+2029 (they end a `//` comment) and the bidirectional controls ("Trojan Source"), and U+FFFE,
 * U+FFFF and U+FEFF, which YAML refuses raw (a Pulumi.yaml holding one does not load; a byte order mark inside a
 * document failed Pulumi YAML's loader after some values). A value comes from an XML document read as UTF-8, which
 * never holds a lone surrogate (no YAML escape could carry one).
 */
const literal = (s: string): string =>
  printable(JSON.stringify(s)).replace(/[\uFEFF\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
/** A comment (`//`, or `mark`) holding `text` on one line, escaped as `literal` escapes it. */
const comment = (text: string, mark = "//"): string => `${mark} ${literal(text).slice(1, -1)}`;

/**
 * Hands out names unique among those given before, compared lower-cased (config keys that differ only in case would
 * confuse a reader): `pullWww`, `pullWww2` from `join(base, 2)`.
 */
function namePool(join: (base: string, n: number) => string): (base: string) => string {
  const taken = new Set<string>();
  return (base) => {
    let out = base;
    for (let n = 2; taken.has(out.toLowerCase()); n++) out = join(base, n);
    taken.add(out.toLowerCase());
    return out;
  };
}

/** `my-zone.v2` -> `MyZoneV2`: the words of a name, each capitalised (`Zone` when none). */
const pascalWords = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("") || "Zone";

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

/** The inputs a listed row can give: listed, not secret, with a value ("" is the API's "not set": the check refuses it). */
const listedInputs = (kind: ZoneKind, row: Record<string, unknown>): [string, string][] =>
  specOf(kind)
    .fields.filter((f) => f.listed && !f.secret && f.input !== "name" && (row[f.wire] ?? "") !== "")
    .map((f) => [f.input, String(row[f.wire])]);

/** The languages `cdn-zones import --language` writes: the package's classes, or the provider plugin's types. */
export const LANGUAGES = ["typescript", "yaml", "python"] as const;
export type Language = (typeof LANGUAGES)[number];

/** One zone of the program, whatever its language. */
interface Entry {
  kind: ZoneKind;
  title: string;
  type: string;
  variable: string;
  resource: string;
  inputs: [string, string][];
  password?: string;
}

/** The program for `zones` in `language`, `header` its opening comment; by kind, then name, so a re-import diffs cleanly. */
export function renderProgram(
  zones: readonly ListedZone[],
  header: readonly string[] = [],
  language: Language = "typescript",
): GeneratedProgram {
  const skipped: SkippedZone[] = [];
  const valid = zones.filter((z) => {
    // A name the check would refuse could only fail its first preview.
    const reason = fieldProblem(
      specOf(z.kind).fields.find((f) => f.input === "name")!,
      z.row.name,
    );
    if (reason) skipped.push({ kind: z.kind, id: z.row.id, name: z.row.name, reason });
    return !reason;
  });
  const sorted = [...valid].sort(
    (a, b) =>
      ZONE_KINDS.indexOf(a.kind) - ZONE_KINDS.indexOf(b.kind) ||
      byCodePoint(String(a.row.name), String(b.row.name)) ||
      Number(a.row.id) - Number(b.row.id),
  );
  // A variable per zone, unique across the program, the kind's prefix keeping it off reserved words; a resource
  // name per type: the zone's own name, numbered if it repeats in another case.
  const variables = namePool((base, n) => `${base}${n}`);
  const names = new Map(ZONE_KINDS.map((k) => [k, namePool((base, n) => `${base}-${n}`)]));
  const counts = perKind(() => 0);
  const entries = sorted.map((z): Entry => {
    const spec = specOf(z.kind);
    const zoneName = String(z.row.name);
    const variable = variables(`${z.kind}${pascalWords(zoneName)}`);
    counts[z.kind]++;
    return {
      kind: z.kind,
      title: `${spec.label} '${zoneName}' (id ${String(z.row.id)})`,
      type: spec.type,
      variable,
      resource: names.get(z.kind)!(zoneName),
      inputs: [["name", zoneName], ...listedInputs(z.kind, z.row)],
      password: spec.fields.some((f) => f.input === "password") ? `${variable}Password` : undefined,
    };
  });
  const passwords = entries.flatMap((e) =>
    e.password ? [{ configKey: e.password, kind: e.kind, zoneName: e.inputs[0][1] }] : [],
  );
  const text = WRITERS[language](entries, header);
  return { text, passwords, counts, skipped };
}

const PASSWORDS_NOTE = "Passwords cannot be read from the API: each comes from the stack's secret config.";

/** The program in each language; every server value goes through `literal` or `comment` . */
const WRITERS: Record<Language, (entries: Entry[], header: readonly string[]) => string> = {
  typescript(entries, header) {
    const withPassword = entries.some((e) => e.password);
    const classes = ZONE_KINDS.filter((k) => entries.some((e) => e.kind === k)).map((k) => kindInfo(k).type);
    const blocks = entries.map((e) => {
      const lines = e.inputs.map(([k, v]) => `  ${k}: ${literal(v)},`);
      if (e.password) lines.push(`  password: config.requireSecret(${literal(e.password)}),`);
      lines.push("  adopt: true,");
      return `${comment(e.title)}\nconst ${e.variable} = new ${e.type}(${literal(e.resource)}, {\n${lines.join("\n")}\n});`;
    });
    return [
      ...header.map((l) => comment(l)),
      ...(withPassword ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
      ...(classes.length ? [`import { ${classes.join(", ")} } from "pulumi-cdn-zones";`] : []),
      "",
      ...(withPassword ? [`// ${PASSWORDS_NOTE}`, "const config = new pulumi.Config();", ""] : []),
      blocks.join("\n\n"),
      "",
      // Exported ids keep every variable used (noUnusedLocals) and show what was adopted.
      entries.length
        ? `export const zoneIds = {\n${entries.map((e) => `  ${e.variable}: ${e.variable}.zoneId,`).join("\n")}\n};`
        : "export {};",
      "",
    ].join("\n");
  },
  yaml(entries, header) {
    // A double-quoted YAML scalar takes JSON's escapes. Pulumi YAML then reads `${` as an interpolation and `$$` as
    // `$` (pulumi-yaml ast/interpolation.go): every `$` is written `$$`, so no value interpolates or loses a `$`.
    const str = (s: string) => literal(s).replace(/\$/g, () => "$$");
    // The project's name: Pulumi.yaml needs one; a team renames it to their own before the first `up`.
    const out = [...header.map((l) => comment(l, "#")), "name: cdn-zones", "runtime: yaml"];
    const secret = entries.filter((e) => e.password);
    if (secret.length) out.push(`# ${PASSWORDS_NOTE}`, "config:");
    for (const e of secret) out.push(`  ${e.password}:`, "    type: string", "    secret: true");
    out.push("resources:");
    for (const e of entries) {
      out.push(`  ${comment(e.title, "#")}`, `  ${str(e.resource)}:`, `    type: cdn:index:${e.type}`);
      out.push("    properties:", ...e.inputs.map(([k, v]) => `      ${k}: ${str(v)}`));
      if (e.password) out.push(`      password: \${${e.password}}`);
      // The options the package's classes and the SDKs set (zoneResource.ts): a removal of a kept zone previews `[retain]`.
      out.push(
        "      adopt: true",
        "    options:",
        `      ${kindInfo(e.kind).deletable ? "deleteBeforeReplace" : "retainOnDelete"}: true`,
      );
    }
    out.push(
      "outputs:",
      "  zoneIds:",
      ...entries.map((e) => `    ${e.variable}: \${${str(e.resource).slice(1, -1)}.zoneId}`),
    );
    return `${out.join("\n")}\n`;
  },
  python(entries, header) {
    const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const out = [...header.map((l) => comment(l, "#")), "import pulumi", "import pulumi_cdn as cdn", ""];
    if (entries.some((e) => e.password)) out.push(`# ${PASSWORDS_NOTE}`, "config = pulumi.Config()", "");
    for (const e of entries) {
      const args = e.inputs.map(([k, v]) => `    ${snake(k)}=${literal(v)},`);
      if (e.password) args.push(`    password=config.require_secret(${literal(e.password)}),`);
      out.push(comment(e.title, "#"), `${snake(e.variable)} = cdn.${e.type}(`, `    ${literal(e.resource)},`);
      out.push(...args, "    adopt=True,", ")", "");
    }
    out.push(
      `pulumi.export("zoneIds", {${entries.map((e) => `${literal(e.variable)}: ${snake(e.variable)}.zone_id`).join(", ")}})`,
    );
    return `${out.join("\n")}\n`;
  },
};
