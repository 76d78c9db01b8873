/**
 * Tests that check what a message means, not how it is worded (issue 27): its error class and `type`, the parameter
 * and method it is about, the values a user acts on (a zone's name and id, a setting, the input or command that
 * helps), and what it must never show. A message can then be reworded without touching these tests;
 * tests/unit/message-wording.test.ts keeps one wording check per message kind.
 */
import { CdnError, CdnValidationError } from "../../provider/api/errors";

export interface Meaning {
  /** The error's class (`CdnNameInUseError`, ...). */
  class?: abstract new (...args: never[]) => Error;
  /** `CdnError.type`. */
  type?: string;
  /** The refused parameter of a `CdnValidationError`. */
  parameter?: string;
  /** The wire method the error belongs to. */
  method?: string;
  /** Values the message must carry, each as written: a name, an id, a setting, the input or command to use. */
  names?: readonly (string | number)[];
  /** What the message must never show: a secret, a value that must not be echoed. */
  never?: readonly string[];
}

/** The text of an error, a check failure (`{ reason }`) or a message. */
function textOf(e: unknown): string {
  if (typeof e === "string") return e;
  if (e instanceof Error) return e.message;
  if (e && typeof e === "object" && typeof (e as { reason?: unknown }).reason === "string")
    return (e as { reason: string }).reason;
  return String(e);
}

/** Asserts what `e` means: every field of `m` that is given. */
export function expectMeaning(e: unknown, m: Meaning): void {
  if (m.class) expect(e).toBeInstanceOf(m.class);
  if (m.type !== undefined) expect((e as CdnError).type).toBe(m.type);
  if (m.parameter !== undefined) {
    expect(e).toBeInstanceOf(CdnValidationError);
    expect((e as CdnValidationError).parameter).toBe(m.parameter);
  }
  if (m.method !== undefined) expect((e as CdnError).method).toBe(m.method);
  const text = textOf(e);
  const missing = (m.names ?? []).map(String).filter((n) => !text.includes(n));
  expect({ missing, text }).toEqual({ missing: [], text });
  const shown = (m.never ?? []).filter((n) => text.includes(n));
  expect({ shown }).toEqual({ shown: [] });
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection, and the promise resolved");
}
