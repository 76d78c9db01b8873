/**
 * Redaction of secrets (the API key, authStrings, zone passwords) in every message built from what a server said,
 * like Octokit's `request-error.js`: a server may echo a password, or text holding a secret, back altered. The text is
 * searched as sent and with its escapes read up to three times (XML, percent and form, JSON/JS/Python backslashes),
 * folded (NFKC, case) and stripped of what shows nothing; a secret is looked for as written, reversed, as hex and as
 * base64. Any run of 8 characters of a secret (a server's own truncation showed 12 of 19), or a text ending in 8 or more
 * of its first characters, is `[redacted]`.
 */

/** Runs of a secret this long are redacted wherever they appear (a partial authString or password echoed back). */
const PARTIAL_RUN = 8;
/** A text ending in this much of a secret's start was cut in the middle of it. */
const CUT_PREFIX = 8;
/** How many times escapes are read (a value escaped as XML, then percent-encoded twice). */
const DECODE_ROUNDS = 3;
/** What shows nothing on a terminal, or nothing of its own: dropped before a text is searched. */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{M}]/gu;

/** The secrets of one call (the key, its authString, zone passwords); an unset one is skipped. */
export type Secrets = readonly (string | undefined)[];

/** One UTF-16 unit of a reading and the span of the original it stands for. */
type Unit = { ch: string; start: number; end: number };
type Span = [number, number];
/** A reading as one string to search, and the span of the original of each of its UTF-16 units. */
type Flat = { text: string; at: Span[] };

/** Secrets this process has been given: never shown, whichever call's message echoes them. */
const REMEMBERED = new Set<string>();
const isSecret = (s: unknown): s is string => typeof s === "string" && s.length >= 3;

/** Redacts `secret` from every message of this process from now on (a password echoed by a call that did not send it). */
export function rememberSecret(secret: unknown): void {
  if (isSecret(secret)) REMEMBERED.add(secret);
}

/** `text` with every secret of `secrets` (and every remembered one) replaced by `[redacted]`, in any of the forms above. */
export function redact(text: string, secrets: Secrets): string {
  let out = String(text);
  const list = [...new Set([...secrets, ...REMEMBERED])].filter(isSecret);
  for (const s of list) out = out.split(s).join("[redacted]");
  if (!list.length) return out;
  const needles = list.map((s) => {
    const bytes = [Buffer.from(s, "utf8"), ...(/^(?:[0-9a-f]{2}){16,}$/i.test(s) ? [Buffer.from(s, "hex")] : [])];
    const text = [fold(s), fold([...s].reverse().join(""))].filter((t) => t.length >= 3);
    return { start: fold(s), text, hex: [bytes[0].toString("hex")], base64: bytes.flatMap(base64Cores) };
  });
  const hits: Span[] = [];
  let view: Unit[] = Array.from({ length: out.length }, (_, i) => ({ ch: out[i], start: i, end: i + 1 }));
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    if (round > 0) view = ESCAPES.reduce((v, [re, read]) => decodeWith(v, re, read), view);
    const folded = flatten(view, fold);
    const bare = flatten(view, (c) => c.replace(INVISIBLE, ""));
    for (const n of needles) {
      markRuns(folded, n.text, 3, hits);
      markCut(folded, n.start, hits);
      markRuns(folded, n.hex, PARTIAL_RUN, hits);
      markRuns(bare, n.base64, PARTIAL_RUN, hits);
    }
  }
  return replaceSpans(out, hits);
}

/** A text folded for the search, one code point at a time (so a reading and a secret fold alike). */
function fold(s: string): string {
  return [...s].map((c) => c.normalize("NFKC").toLowerCase().replace(INVISIBLE, "")).join("");
}

/** A reading as one string, each code point through `f`, with the original span of each UTF-16 unit. */
function flatten(view: Unit[], f: (c: string) => string): Flat {
  const flat: Flat = { text: "", at: [] };
  for (let k = 0; k < view.length; k++) {
    const start = view[k].start;
    let ch = view[k].ch;
    if (/[\uD800-\uDBFF]/.test(ch) && /[\uDC00-\uDFFF]/.test(view[k + 1]?.ch ?? "")) ch += view[++k].ch;
    const g = f(ch);
    flat.text += g;
    for (let n = 0; n < g.length; n++) flat.at.push([start, view[k].end]);
  }
  return flat;
}

/** Marks every run of `PARTIAL_RUN` characters of each needle (all of a shorter one, of at least `min`) in a reading. */
function markRuns(flat: Flat, needles: readonly string[], min: number, hits: Span[]): void {
  for (const needle of needles) {
    if (needle.length < min) continue;
    const run = Math.min(PARTIAL_RUN, needle.length);
    for (let j = 0; j + run <= needle.length; j++) {
      const piece = needle.slice(j, j + run);
      for (let i = flat.text.indexOf(piece); i >= 0; i = flat.text.indexOf(piece, i + 1))
        hits.push([flat.at[i][0], flat.at[i + run - 1][1]]);
    }
  }
}

/** Marks the end of a reading (before an ellipsis) when it is the start of the secret: a text cut in the middle of it. */
function markCut(flat: Flat, secret: string, hits: Span[]): void {
  const end = flat.text.replace(/(?:\.{2,}|\[truncated\])$/, "").length;
  for (let len = Math.min(secret.length, end); len >= CUT_PREFIX; len--) {
    if (flat.text.slice(end - len, end) === secret.slice(0, len)) {
      hits.push([flat.at[end - len][0], flat.at[end - 1][1]]);
      return;
    }
  }
}

/** The base64 (both alphabets) of `bytes` as it appears after 0, 1 or 2 other bytes: its whole groups' characters. */
function base64Cores(bytes: Buffer): string[] {
  return [0, 1, 2].flatMap((shift) => {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    const rem = (bytes.length + shift) % 3;
    const core = b64.slice(shift === 0 ? 0 : 4, b64.length - (rem === 0 ? 0 : rem + 1));
    return [core, core.replace(/\+/g, "-").replace(/\//g, "_")];
  });
}

/** `text` with each marked span (merged where they touch) replaced by `[redacted]`. */
function replaceSpans(text: string, hits: Span[]): string {
  hits.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let result = "";
  let from = 0;
  for (let i = 0; i < hits.length; i++) {
    let [start, end] = hits[i];
    start = Math.max(start, from);
    while (i + 1 < hits.length && hits[i + 1][0] <= end) end = Math.max(end, hits[++i][1]);
    if (end <= start) continue;
    result += `${text.slice(from, start)}[redacted]`;
    from = end;
  }
  return result + text.slice(from);
}

const codePoint = (hex: string | undefined, radix = 16): string | undefined => {
  const n = hex === undefined ? NaN : parseInt(hex, radix);
  return n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
};
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** The escapes read in each round, in this order: XML references, percent-escapes (one UTF-8 character) and a form's `+`, backslashes. */
const ESCAPES: [RegExp, (m: RegExpMatchArray) => string | undefined][] = [
  [
    /&(?:#x([0-9a-f]{1,6})|#(\d{1,7})|(amp|lt|gt|quot|apos));/gi,
    (m) => (m[3] ? NAMED[m[3].toLowerCase()] : m[1] ? codePoint(m[1]) : codePoint(m[2], 10)),
  ],
  [
    /%[0-7][0-9a-f]|%[c-d][0-9a-f]%[89ab][0-9a-f]|%e[0-9a-f](?:%[89ab][0-9a-f]){2}|%f[0-4](?:%[89ab][0-9a-f]){3}|\+/gi,
    (m) => (m[0] === "+" ? " " : Buffer.from(m[0].replace(/%/g, ""), "hex").toString("utf8")),
  ],
  [
    /\\(?:u\{([0-9a-f]{1,6})\}|u([0-9a-f]{4})|x([0-9a-f]{2})|U([0-9a-f]{8})|(["'\\/]))/g,
    (m) => m[5] ?? (m[2] ? String.fromCharCode(parseInt(m[2], 16)) : codePoint(m[1] ?? m[3] ?? m[4])),
  ],
];

/** A reading with each match of `re` read as what `read` gives (undefined: left as it is), spanning what it replaced. */
function decodeWith(view: Unit[], re: RegExp, read: (m: RegExpMatchArray) => string | undefined): Unit[] {
  const out: Unit[] = [];
  let from = 0;
  const text = view.map((u) => u.ch).join("");
  for (const m of text.matchAll(re)) {
    const ch = read(m);
    if (ch === undefined) continue;
    const at = m.index!;
    out.push(...view.slice(from, at));
    for (let n = 0; n < ch.length; n++)
      out.push({ ch: ch[n], start: view[at].start, end: view[at + m[0].length - 1].end });
    from = at + m[0].length;
  }
  return from === 0 ? view : out.concat(view.slice(from));
}
