/** Shared assertion of the client and function tests: a bad argument never leaves the process. */
import { CdnValidationError } from "../../provider/api";

/** Runs `fn` and expects a validation error naming `parameter` (and `text`), with no call recorded by the emulator. */
export async function expectRefusedLocally(
  emu: { calls: readonly unknown[] },
  fn: () => Promise<unknown>,
  parameter: string,
  text?: string,
): Promise<void> {
  const before = emu.calls.length;
  const err = await fn().then(
    () => undefined,
    (e) => e,
  );
  expect(err).toBeInstanceOf(CdnValidationError);
  expect(err.parameter).toBe(parameter);
  expect(err.message).toContain(parameter);
  if (text) expect(err.message).toContain(text);
  expect(emu.calls.length).toBe(before);
}
