/**
 * `pulumi.runtime.setMocks` helpers of the function tests: resources echo their inputs, the preview
 * flag is switched per test, the stack config points at an emulator with the API key secret, and an
 * Output is read back with its secrecy and knownness.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Emulator } from "../../provider/emulator";
import { liveFunctionsUnderMocks } from "./liveFunctions";

/** Mocks whose resources return their inputs as outputs, with id `<name>-id`. */
export const echoMocks: pulumi.runtime.Mocks = {
  newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }),
  call: () => ({}),
};

/**
 * Installs the echo mocks for project "project", stack "stack", as a preview or not. The function
 * tests prove what functions send to the emulator, so functions call the API instead of answering
 * from `mocks.call` (tests/support/liveFunctions.ts).
 */
export function setPreview(preview: boolean, mocks: pulumi.runtime.Mocks = echoMocks): Promise<void> {
  return pulumi.runtime.setMocks(mocks, "project", "stack", preview).then(liveFunctionsUnderMocks);
}

/** The stack's config as a program sees it: `cdn:*` pointing at `emu`, `cdn:apiKey` secret, plus `extra`. */
export function useStackConfig(emu: Emulator, extra: Record<string, string> = {}): void {
  pulumi.runtime.setAllConfig(
    { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId), "cdn:apiKey": emu.apiKey, ...extra },
    ["cdn:apiKey"],
  );
}

/** Value, secrecy and knownness of an Output; rejects with the apply's error (all its promises are awaited). */
export async function settled<T>(o: pulumi.Output<T>): Promise<{ value: T; secret: boolean; known: boolean }> {
  const x = o as unknown as { promise(): Promise<T>; isSecret: Promise<boolean>; isKnown: Promise<boolean> };
  const [value, secret, known] = await Promise.allSettled([x.promise(), x.isSecret, x.isKnown]);
  if (value.status === "rejected") throw value.reason;
  return {
    value: value.value as T,
    secret: (secret as PromiseFulfilledResult<boolean>).value,
    known: (known as PromiseFulfilledResult<boolean>).value,
  };
}
