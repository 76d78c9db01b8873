/**
 * Redaction of secrets (the API key, authStrings, zone passwords) in every message the client builds from what a
 * server said, like Octokit's `request-error.js`. A server may echo a secret back altered, so the text is read
 * in several decoded views, each character mapped back to the span of the original it stands for: as sent;
 * with XML entity and numeric references read (once or twice); with percent-escapes read (URL and form
 * encoding, once or twice) and backslash escapes read (JSON's `\u0026`, `\x26`, `\"`). Each view is compared
 * without regard to case (a server that upper-cases what it echoes) and without white space (a wrapped line).
 * The secret as hex or base64 bytes is looked for too. What matches is replaced by `[redacted]`.
 */

/** Runs of a secret this long are redacted wherever they appear (a partial authString echoed back). */
const PARTIAL_RUN = 16;
/** A text ending in this much of a secret's start was cut in the middle of it. */
const CUT_PREFIX = 8;

/** One character of a decoded view and the span of the original text it stands for. */
interface Unit {
  ch: string;
  start: number;
  end: number;
}

/**
 * Replaces every secret (API key, authString, passwords) in a text with `[redacted]`, also where a
 * server echoed it back altered: XML-escaped (once or twice), percent-encoded (once or twice, either
 * case of hex digits), JSON- or backslash-escaped, in another case, with whitespace inserted or
 * collapsed, as hex or base64 bytes, partly (any run of 16 characters of it), or cut at a length
 * limit (the text ends with 8 or more of its first characters).
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = String(text);
  const list = secrets.filter((s): s is string => typeof s === "string" && s.length >= 3);
  for (const s of list) out = out.split(s).join("[redacted]");
  if (!list.length) return out;
  const hits: [number, number][] = [];
  const plain = decodeEntities(decodeEntities(toUnits(out)));
  const decoded = decodeBackslashes(decodePercent(decodeEntities(decodePercent(plain))));
  for (const view of [plain, decoded]) markView(view, list, hits);
  for (const s of list) markEncoded(out, s, hits);
  return replaceSpans(out, hits);
}

/** Marks in `hits` the original spans of every run of a secret (and a cut secret at the end) found in a view. */
function markView(view: Unit[], secrets: readonly string[], hits: [number, number][]): void {
  const units = view.filter((u) => !/\s/.test(u.ch));
  // The view in lower case; `at[i]` is the unit the i-th character of `flat` comes from.
  let flat = "";
  const at: number[] = [];
  for (let k = 0; k < units.length; k++) {
    const lower = units[k].ch.toLowerCase();
    flat += lower;
    for (let n = 0; n < lower.length; n++) at.push(k);
  }
  const span = (from: number, len: number) => {
    const first = units[at[from]];
    const last = units[at[from + len - 1]];
    hits.push([first.start, last.end]);
  };
  for (const raw of secrets) {
    const secret = raw.replace(/\s+/g, "").toLowerCase();
    if (secret.length < 3) continue;
    const run = Math.min(PARTIAL_RUN, secret.length);
    const seen = new Set<string>();
    for (let j = 0; j + run <= secret.length; j++) {
      const piece = secret.slice(j, j + run);
      if (seen.has(piece)) continue;
      seen.add(piece);
      for (let i = flat.indexOf(piece); i >= 0; i = flat.indexOf(piece, i + 1)) span(i, run);
    }
    // A cut message: its last characters (before an ellipsis) are the start of the secret.
    const end = flat.replace(/(?:\.{2,}|\u2026|\[truncated\])$/i, "").length;
    for (let len = Math.min(secret.length, end); len >= CUT_PREFIX; len--) {
      if (flat.slice(end - len, end) === secret.slice(0, len)) {
        span(end - len, len);
        break;
      }
    }
  }
}

/** Marks the secret's bytes written as hex (either case) or base64 (at each of the three byte alignments). */
function markEncoded(text: string, secret: string, hits: [number, number][]): void {
  const bytes = Buffer.from(secret, "utf8");
  const hex = bytes.toString("hex");
  if (hex.length >= PARTIAL_RUN)
    for (const m of text.matchAll(new RegExp(hex, "gi"))) hits.push([m.index!, m.index! + hex.length]);
  for (let shift = 0; shift < 3; shift++) {
    // After `shift` bytes of something else in its first group, the secret's own base64 characters are those of
    // its whole groups: the first group (when shared) and the last partial one depend on the bytes around it.
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    const rem = (bytes.length + shift) % 3;
    const core = b64.slice(shift === 0 ? 0 : 4, b64.length - (rem === 0 ? 0 : rem + 1));
    if (core.length < PARTIAL_RUN) continue;
    for (let i = text.indexOf(core); i >= 0; i = text.indexOf(core, i + 1)) hits.push([i, i + core.length]);
  }
}

/** `text` with each marked span (merged where they touch) replaced by `[redacted]`. */
function replaceSpans(text: string, hits: [number, number][]): string {
  if (!hits.length) return text;
  hits.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let result = "";
  let from = 0;
  let i = 0;
  while (i < hits.length) {
    let [start, end] = hits[i];
    if (start < from) start = from;
    while (i + 1 < hits.length && hits[i + 1][0] <= end) end = Math.max(end, hits[++i][1]);
    i++;
    if (end <= start) continue;
    result += `${text.slice(from, start)}[redacted]`;
    from = end;
  }
  return result + text.slice(from);
}

function toUnits(text: string): Unit[] {
  const out: Unit[] = [];
  for (let i = 0; i < text.length; i++) out.push({ ch: text[i], start: i, end: i + 1 });
  return out;
}

/** A unit standing for the units from `first` to `last` of a view. */
const joined = (ch: string, first: Unit, last: Unit): Unit => ({ ch, start: first.start, end: last.end });

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Reads XML entity references (`&amp;`, `&#38;`, `&#x26;`) as the character they stand for. */
function decodeEntities(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  for (let i = 0; i < units.length; i++) {
    if (units[i].ch === "&") {
      let j = i + 1;
      let ref = "";
      while (j < units.length && j - i <= 10 && units[j].ch !== ";") ref += units[j++].ch;
      if (j < units.length && units[j].ch === ";") {
        const code = /^#x[0-9a-f]+$/i.test(ref)
          ? parseInt(ref.slice(2), 16)
          : /^#\d+$/.test(ref)
            ? parseInt(ref.slice(1), 10)
            : NaN;
        const ch = NAMED[ref] ?? (code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined);
        if (ch !== undefined) {
          out.push(joined(ch, units[i], units[j]));
          i = j;
          continue;
        }
      }
    }
    out.push(units[i]);
  }
  return out;
}

/** The byte of a `%XX` escape starting at unit `i`, or undefined. */
function percentByte(units: Unit[], i: number): number | undefined {
  if (units[i]?.ch !== "%" || i + 2 >= units.length) return undefined;
  const hex = units[i + 1].ch + units[i + 2].ch;
  return /^[0-9a-f]{2}$/i.test(hex) ? parseInt(hex, 16) : undefined;
}

/** Reads percent-escapes as the UTF-8 characters they encode (a sequence that is not UTF-8 stays as it is). */
function decodePercent(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  for (let i = 0; i < units.length; i++) {
    const lead = percentByte(units, i);
    if (lead === undefined) {
      out.push(units[i]);
      continue;
    }
    const size = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    const bytes = [lead];
    for (let n = 1; n < size; n++) {
      const b = percentByte(units, i + 3 * n);
      if (b === undefined || (b & 0xc0) !== 0x80) break;
      bytes.push(b);
    }
    if (size === 0 || bytes.length !== size) {
      out.push(units[i]);
      continue;
    }
    out.push(joined(Buffer.from(bytes).toString("utf8"), units[i], units[i + 3 * size - 1]));
    i += 3 * size - 1;
  }
  return out;
}

/** Reads backslash escapes as JSON, JavaScript and Python write them: `\u0026`, `\x26`, `\"`, `\'`, `\\`, `\/`. */
function decodeBackslashes(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  for (let i = 0; i < units.length; i++) {
    if (units[i].ch === "\\" && i + 1 < units.length) {
      const next = units[i + 1].ch;
      const width = next === "u" ? 4 : next === "x" ? 2 : 0;
      const digits = units
        .slice(i + 2, i + 2 + width)
        .map((u) => u.ch)
        .join("");
      if (width > 0 && digits.length === width && /^[0-9a-f]+$/i.test(digits)) {
        out.push(joined(String.fromCharCode(parseInt(digits, 16)), units[i], units[i + 1 + width]));
        i += 1 + width;
        continue;
      }
      if (`"'\\/`.includes(next)) {
        out.push(joined(next, units[i], units[i + 1]));
        i += 1;
        continue;
      }
    }
    out.push(units[i]);
  }
  return out;
}
