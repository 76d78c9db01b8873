/**
 * Names in a generated program: a TypeScript variable per zone (`pullWww`), unique across the
 * program, and a stack config key for each password. Zone names are DNS labels, so most map
 * one to one; anything else is folded to letters and digits and numbered when two collide.
 */

/** `my-zone.v2` -> `MyZoneV2`: the words of a name, each capitalised. */
function pascalWords(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
}

/** Hands out identifiers, each unique among those given before (`pullWww`, `pullWww2`). */
export class IdentifierPool {
  private readonly taken = new Set<string>();

  /** An identifier for a zone of kind `prefix` (`pull`) named `name`; the kind prefix keeps it off reserved words. */
  take(prefix: string, name: string): string {
    const base = `${prefix}${pascalWords(name) || "Zone"}`;
    let id = base;
    for (let n = 2; this.taken.has(id.toLowerCase()); n++) id = `${base}${n}`;
    // Compared lower-cased: config keys that differ only in case would confuse a reader.
    this.taken.add(id.toLowerCase());
    return id;
  }
}

/** Hands out Pulumi resource names per kind: the zone's own name, numbered if it repeats in another case. */
export class ResourceNamePool {
  private readonly taken = new Map<string, Set<string>>();

  take(kind: string, name: string): string {
    const seen = this.taken.get(kind) ?? new Set<string>();
    this.taken.set(kind, seen);
    let out = name;
    for (let n = 2; seen.has(out.toLowerCase()); n++) out = `${name}-${n}`;
    seen.add(out.toLowerCase());
    return out;
  }
}
