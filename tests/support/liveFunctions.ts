/**
 * For tests that use `setMocks` only to set preview or not, and prove what functions send to the
 * emulator: marks the mock monitor the way the testing kit does, so functions call the API
 * instead of answering from `mocks.call` (provider/functions/mocks.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { LIVE_FUNCTIONS } from "../../provider/functions/mocks";

export function liveFunctionsUnderMocks(): void {
  (pulumi.runtime.getMonitor() as unknown as Record<symbol, unknown>)[LIVE_FUNCTIONS] = true;
}
