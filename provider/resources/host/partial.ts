/**
 * The one error a zone operation throws when the zone exists but the operation did not finish:
 * the engine keeps it in state with its id (a partial create, or a partial update) and the next
 * `up` finishes the work. The engine shows only `reasons` of such an error, dropping its message
 * (provider_plugin.go `parseError`, see docs/pulumi-engine.md), so the whole explanation (zone,
 * id, what was done, what the next `up` does) goes into `reasons`.
 */
import { declared } from "./outputs";
import type { Props } from "../specs";

export class ZoneInitError extends Error {
  readonly properties: Props;
  readonly reasons: string[];
  /**
   * The host passes `properties` on as the stored outputs without adding `__provider` (it does so
   * only on success), and a later refresh needs it in the outputs to find the provider, so it is
   * copied from `from` (the inputs of the failed call).
   */
  constructor(
    message: string,
    readonly id: string,
    properties: Props,
    from: Props = {},
  ) {
    super(message);
    this.reasons = [message];
    this.properties =
      declared(from.__provider) && !declared(properties.__provider)
        ? { ...properties, __provider: from.__provider }
        : properties;
  }
}
