/**
 * The arguments each handler receives, derived from its method's entry in the table
 * (api/methods.ts), as the client's option types are (api/types.ts): a parameter added, renamed
 * or retyped there changes its handler's argument type with it. These are the values
 * `checkParams` (params.ts) gives after conversion, so they are the emulator's concern, not the wire's.
 */
import type { MethodOf, WireName } from "../api/methods";
import type { SortKey } from "./params";

/** A struct parameter's members: its required keys, then the others it accepts (the emulator refuses any other key). */
type StructOf<P> = P extends { readonly keys: readonly (infer K extends string)[] }
  ? { readonly [k in RequiredKeys<P>]: string } & { readonly [k in Exclude<K, RequiredKeys<P>>]?: string }
  : never;
type RequiredKeys<P> = P extends { readonly requiredKeys: readonly (infer R extends string)[] } ? R : never;

/**
 * The value of one parameter after conversion. Bounds and enums are not part of the type:
 * the handlers check them, with messages of their own (a `type` of 4 reaches the handler).
 */
export type ArgValueOf<P> = P extends { readonly type: "int" }
  ? number
  : P extends { readonly type: "string"; readonly numericString: true }
    ? number
    : P extends { readonly type: "string" | "date" }
      ? string
      : P extends { readonly type: "struct" }
        ? StructOf<P>
        : P extends { readonly type: "sortby" }
          ? readonly SortKey[]
          : P extends { readonly type: "mixed" }
            ? number | string
            : never;

type ParamOf<N extends WireName> = MethodOf<N>["params"][number];

/**
 * The converted arguments of method `N`, by parameter name: a required parameter is always
 * present, an optional one is absent when omitted or sent as `<nil/>`.
 */
export type ArgsOf<N extends WireName> = {
  readonly [P in ParamOf<N> as P extends { readonly required: true } ? P["name"] : never]: ArgValueOf<P>;
} & {
  readonly [P in ParamOf<N> as P extends { readonly required: false } ? P["name"] : never]?: ArgValueOf<P>;
};
