/**
 * Redaction as a server may echo a secret back (escaped, re-spaced, cut, in part), and `withMessage`,
 * which gives an error another message without touching the original.
 */
import { authString } from "../../provider/api/auth";
import { CdnAuthError, CdnError, CdnProtocolError, CdnTransportError, withMessage } from "../../provider/api/errors";
import { redact, rememberSecret } from "../../provider/api/redact";
import { FAULT } from "../../provider/api/wire";

const KEY = "k3y&<secret>\"value'0123456789";
const AUTH = authString("2026-11-23T04:00:00-08:00", KEY, "listZones");
const PW = "zone-pw-Секрет";
/** 19 characters, of which a server's own truncation showed 12 (issue 41). */
const PUSH_PW = "ADV5pw-Zq8xWn4Lr2Tb";
const secrets = [KEY, AUTH, PW, PUSH_PW];

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

describe("redact", () => {
  const CASES: [string, string][] = [
    ["as sent", `bad key ${KEY} for user 7`],
    ["XML-escaped", `bad key ${escape(KEY)} for user 7`],
    ["XML-escaped twice", `bad key ${escape(escape(KEY))} for user 7`],
    ["as numeric character references", `bad key ${[...KEY].map((c) => `&#${c.codePointAt(0)};`).join("")} for user 7`],
    ["with whitespace inserted (a wrapped line)", `bad key ${KEY.slice(0, 10)}\n    ${KEY.slice(10)} for user 7`],
    ["cut at a length limit", `request was: apiKey=${KEY.slice(0, 12)}`],
    ["cut at a length limit, with an ellipsis", `request was: apiKey=${KEY.slice(0, 9)}...`],
    ["an authString cut in half", `authString ${AUTH.slice(0, 32)} does not match`],
    ["the middle of an authString", `hash ...${AUTH.slice(20, 44)}... rejected`],
    ["a password", `zone password '${PW}' is too weak`],
    ["cut by the server, with its own marker after the cut", `value too long: ${PUSH_PW.slice(0, 12)}... (truncated)`],
    ["as 8 characters of its middle", `near '${PUSH_PW.slice(6, 14)}'`],
  ];
  test.each(CASES)("a secret %s", (_what, text) => {
    const out = redact(text, secrets);
    expect(out).toContain("[redacted]");
    for (const s of secrets) {
      for (let i = 0; i + 8 <= s.length; i++) expect(out).not.toContain(s.slice(i, i + 8));
      expect(out).not.toContain(escape(s).slice(0, 10));
    }
  });

  test("a secret holding runs of whitespace, echoed with the whitespace collapsed", () => {
    const phrase = "correct  horse\tbattery   staple";
    expect(redact("password 'correct horse battery staple' refused", [phrase])).toBe("password '[redacted]' refused");
  });

  test("the text around a secret is kept", () => {
    expect(redact(`bad key ${escape(KEY)} for user 7`, secrets)).toBe("bad key [redacted] for user 7");
    expect(redact(`authString ${AUTH.slice(0, 32)} does not match`, secrets)).toBe(
      "authString [redacted] does not match",
    );
    expect(redact(`cut: ${KEY.slice(0, 10)}`, secrets)).toBe("cut: [redacted]");
  });

  test("text without a secret is left as it is", () => {
    const text = "authentication failed: unknown user 7 &amp; stale date\n  (see docs)";
    expect(redact(text, secrets)).toBe(text);
    // Seven characters of the key's start at the end are too few to call it a cut key.
    expect(redact(`x ${KEY.slice(0, 7)}`, secrets)).toBe(`x ${KEY.slice(0, 7)}`);
  });

  test("an auth error's message carries no part of the key or authString", () => {
    const err = new CdnAuthError(
      FAULT.AUTH_FAILED,
      redact(`bad authString ${AUTH.slice(0, 40)}`, secrets),
      "pullzone.listZones",
    );
    expect(err.message).not.toContain(AUTH.slice(0, 16));
  });
});

describe("redact: a secret echoed in another case or encoding (issue 25)", () => {
  const MIXED = "MixedCase-Api-Key-0123456789abcdef";
  const all = [KEY, PW, MIXED];
  const everyByte = (x: string) =>
    [...Buffer.from(x, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
  const FORMS: [string, (x: string) => string][] = [
    ["as sent", (x) => x],
    ["in upper case", (x) => x.toUpperCase()],
    ["in lower case", (x) => x.toLowerCase()],
    ["percent-encoded", (x) => encodeURIComponent(x)],
    [
      "percent-encoded, lower-case hex digits",
      (x) => encodeURIComponent(x).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    ],
    ["percent-encoded twice", (x) => encodeURIComponent(encodeURIComponent(x))],
    ["every byte percent-encoded", everyByte],
    ["form-encoded", (x) => new URLSearchParams({ k: x }).toString().slice(2)],
    ["percent-encoded, then upper-cased", (x) => encodeURIComponent(x).toUpperCase()],
    ["JSON-escaped", (x) => JSON.stringify(x).slice(1, -1)],
    [
      "JSON with \\u escapes for everything outside letters and digits",
      (x) => x.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    ],
    ["with backslashes before quotes (addslashes)", (x) => x.replace(/(["'\\])/g, "\\$1")],
    ["XML-escaped, then percent-encoded", (x) => encodeURIComponent(escape(x))],
    ["as hex bytes", (x) => Buffer.from(x, "utf8").toString("hex")],
    ["as hex bytes in upper case", (x) => Buffer.from(x, "utf8").toString("hex").toUpperCase()],
    ["as base64", (x) => Buffer.from(x).toString("base64")],
    ["as base64 after one other byte", (x) => Buffer.from(`a${x}`).toString("base64")],
    ["as base64 after two other bytes", (x) => Buffer.from(`ab${x}`).toString("base64")],
  ];
  test.each(FORMS)("a secret %s", (_what, form) => {
    for (const secret of all) {
      const echoed = form(secret);
      const out = redact(`server said: ${echoed} (end)`, all);
      expect(out).toMatch(/^server said: .*\[redacted\].* \(end\)$/);
      for (let i = 0; i + 8 <= echoed.length; i++) expect(out).not.toContain(echoed.slice(i, i + 8));
      const lower = out.toLowerCase();
      for (let i = 0; i + 8 <= secret.length; i++) expect(lower).not.toContain(secret.slice(i, i + 8).toLowerCase());
    }
  });

  test("the text around an encoded secret is kept, and encoded text without one is left alone", () => {
    expect(redact(`key=${encodeURIComponent(KEY)}&user=7`, all)).toBe("key=[redacted]&user=7");
    const clean = "GET /xmlrpc/pullzone?name=caf%C3%A9%20bar&x=%5Cu0041 \\u0041 6b33 aGVsbG8=";
    expect(redact(clean, all)).toBe(clean);
  });
});

describe("redact: forms that look like the secret, or decode to it (issue 33, point 5)", () => {
  const MIXED = "MixedCase-Api-Key-0123456789abcdef";
  const all = [KEY, AUTH, PW, MIXED];
  const between = (sep: string) => (x: string) => [...x].join(sep);
  const everyChar = (f: (cp: number) => string) => (x: string) => [...x].map((c) => f(c.codePointAt(0)!)).join("");
  const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
  const reversed = (x: string) => [...x].reverse().join("");
  const FORMS: [string, (x: string) => string][] = [
    ["with a zero-width space between characters", between("\u200b")],
    ["with a zero-width joiner between characters", between("\u200d")],
    ["with a zero-width non-joiner between characters", between("\u200c")],
    ["with a word joiner between characters", between("\u2060")],
    ["with a zero-width no-break space (BOM) between characters", between("\ufeff")],
    ["with a soft hyphen between characters", between("\u00ad")],
    ["with a combining grapheme joiner between characters", between("\u034f")],
    ["with invisible characters of several kinds, upper-cased", (x) => between("\u200b\u2063")(x).toUpperCase()],
    ["with a NUL after each character", (x) => [...x].map((c) => `${c}\u0000`).join("")],
    ["with a C1 control between characters", between("\u0085")],
    ["with zero-width spaces written as character references", between("&#8203;")],
    [
      "in full-width letters and digits",
      (x) => x.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
    ],
    ["reversed", reversed],
    ["reversed, in upper case", (x) => reversed(x).toUpperCase()],
    ["percent-encoded three times", (x) => encodeURIComponent(encodeURIComponent(encodeURIComponent(x)))],
    ["JSON-escaped, every character", everyChar((cp) => (cp > 0xffff ? String.fromCodePoint(cp) : `\\u${hex(cp, 4)}`))],
    ["as ES2015 \\u{...} escapes", everyChar((cp) => `\\u{${hex(cp, 1)}}`)],
    ["as Python \\U escapes", everyChar((cp) => `\\U${hex(cp, 8)}`)],
    ["as base64url", (x) => Buffer.from(x).toString("base64url")],
    [
      "as base64 wrapped every 8 characters",
      (x) =>
        Buffer.from(x)
          .toString("base64")
          .replace(/(.{8})/g, "$1\n"),
    ],
    [
      "as hex bytes separated by spaces",
      (x) =>
        Buffer.from(x)
          .toString("hex")
          .replace(/(..)(?!$)/g, "$1 "),
    ],
  ];
  test.each(FORMS)("a secret %s", (_what, form) => {
    for (const secret of all) {
      const echoed = form(secret);
      const out = redact(`server said: ${echoed} (end)`, all);
      expect(out).toMatch(/^server said: .*\[redacted\].* \(end\)$/s);
      // Nothing of the secret is left that reads as 8 of its characters once the invisible ones are gone.
      const visible = out
        .replace(/[\s\p{Cf}\p{Cc}\p{M}]/gu, "")
        .normalize("NFKC")
        .toLowerCase();
      for (let i = 0; i + 8 <= secret.length; i++) {
        expect(visible).not.toContain(secret.slice(i, i + 8).toLowerCase());
        expect(visible).not.toContain(reversed(secret.slice(i, i + 8)).toLowerCase());
      }
    }
  });

  test("an authString's digest as base64, and in upper-case hex", () => {
    const digest = Buffer.from(AUTH, "hex");
    for (const echoed of [digest.toString("base64"), digest.toString("base64url"), AUTH.toUpperCase()])
      // At most the last group of the base64 (up to 2 bytes, with padding) is left: it depends on what follows.
      expect(redact(`hash ${echoed} rejected`, all)).toMatch(/^hash \[redacted\]\S{0,4} rejected$/);
  });

  test("a secret the process has seen is redacted where the call did not send it", () => {
    const seen = "Seen-Elsewhere-Pa55";
    rememberSecret(seen);
    expect(redact(`zone password ${seen} is weak`, [KEY])).toBe("zone password [redacted] is weak");
  });

  test("text without a secret is left as it is, invisible characters, escapes and encodings included", () => {
    const clean =
      "caf\u00e9 \u200bzwsp &#8203; \\u{1F600} \\U0001F600 %2541 aGVsbG8gd29ybGQ= ZGVhZGJlZWY 6b 33 fe ed \uff21\uff22";
    expect(redact(clean, all)).toBe(clean);
  });
});

describe("withMessage", () => {
  test("a new error of the same class with the new message; the original is untouched", () => {
    const original = new CdnTransportError({
      type: "http_status",
      message: "pullzone.listZones: HTTP 503",
      method: "pullzone.listZones",
      maybeProcessed: true,
      status: 503,
      retryAfterMs: 1000,
    });
    original.attempts = 5;
    original.cause = new Error("socket");
    const a = withMessage(original, "pull zone 'a' (id 3): pullzone.listZones: HTTP 503");
    const b = withMessage(original, "pull zone 'b' (id 4): pullzone.listZones: HTTP 503");
    expect(a).toBeInstanceOf(CdnTransportError);
    expect(a).not.toBe(original);
    expect(a.message).toBe("pull zone 'a' (id 3): pullzone.listZones: HTTP 503");
    expect(b.message).toBe("pull zone 'b' (id 4): pullzone.listZones: HTTP 503");
    expect(original.message).toBe("pullzone.listZones: HTTP 503");
    expect(a).toMatchObject({
      type: "http_status",
      status: 503,
      attempts: 5,
      retryable: true,
      maybeProcessed: true,
      retryAfterMs: 1000,
      method: "pullzone.listZones",
      name: "CdnTransportError",
    });
    expect(a.cause).toBe(original.cause);
    expect(a.stack!.split("\n")[0]).toBe("CdnTransportError: pull zone 'a' (id 3): pullzone.listZones: HTTP 503");
  });

  test("getters that read fields keep working (retryable of a cut body, notGranted)", () => {
    const cut = withMessage(new CdnProtocolError("unexpected end of the document", "x.y", true), "zone 'z': cut");
    expect(cut.retryable).toBe(true);
    const denied = withMessage(new CdnAuthError(FAULT.ACCESS_DENIED, "denied", "livezone.listZones"), "live zone 'z'");
    expect(denied).toBeInstanceOf(CdnAuthError);
    expect(denied.notGranted).toBe(true);
    expect(denied.type).toBe("auth");
  });

  test("the same message gives the same error", () => {
    const e = new CdnError("protocol", "boom");
    expect(withMessage(e, "boom")).toBe(e);
  });
});
