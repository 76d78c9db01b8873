/** Each handler's arguments as `checkParams` converts them, typed from its method's entry in the table (api/methods.ts). */
import type { MethodOf, WireName } from "../api/methods";
import type { SortKey } from "./params";

/** A struct parameter's members: its required keys, then the others it accepts (the emulator refuses any other key). */
type StructOf<P> = P extends { readonly keys: readonly (infer K extends string)[] }
  ? { readonly [k in RequiredKeys<P>]: string } & { readonly [k in Exclude<K, RequiredKeys<P>>]?: string }
  : never;
type RequiredKeys<P> = P extends { readonly requiredKeys: readonly (infer R extends string)[] } ? R : never;

/** The value of one parameter after conversion; bounds and enums are the handlers' to check. */
type ArgValueOf<P> = P extends { readonly type: "int" } | { readonly type: "string"; readonly numericString: true }
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

/** The converted arguments of method `N` by name; an optional one is absent when omitted or `<nil/>`. */
export type ArgsOf<N extends WireName> = {
  readonly [P in ParamOf<N> as P extends { readonly required: true } ? P["name"] : never]: ArgValueOf<P>;
} & {
  readonly [P in ParamOf<N> as P extends { readonly required: false } ? P["name"] : never]?: ArgValueOf<P>;
};
