/** The client's argument types, derived from the method table as Octokit derives its endpoint types. */
import type { MethodOf, WireName } from "./methods";
import type { ReportAnswer, ReportName } from "./reportShapes";

/** A date parameter: `Y-m-d` text, or a `Date` (sent as its UTC calendar day). */
export type DateArg = string | Date;

/** The TypeScript type a caller passes for each wire type. */
type ArgTypes = {
  int: number;
  string: string;
  date: DateArg;
  sortby: string[];
  mixed: number | string;
  struct: Record<string, string | undefined>;
};
/** The TypeScript type a caller passes for one parameter spec: its `enum`, or its wire type's. */
export type ArgOf<P> = P extends { readonly enum: readonly (infer E)[] }
  ? E
  : P extends { readonly numericString: true }
    ? number | string
    : P extends { readonly type: infer T extends keyof ArgTypes }
      ? ArgTypes[T]
      : never;

type Params<N extends WireName> = MethodOf<N>["params"];

/** The required parameters of a method, in the table's order, as a tuple of argument types. */
export type RequiredArgs<Ps> = Ps extends readonly [infer H, ...infer T]
  ? H extends { readonly required: true }
    ? [ArgOf<H>, ...RequiredArgs<T>]
    : RequiredArgs<T>
  : [];

/** The optional parameters of a method, by name: the options object of its typed wrapper. */
export type OptionsOf<N extends WireName> = {
  [P in Params<N>[number] as P extends { readonly required: false } ? P["name"] : never]?: ArgOf<P>;
};

/** The methods of a group in the table (`getBandwidth` of `account`). */
export type MethodsOf<G extends string> = WireName extends infer W ? (W extends `${G}.${infer M}` ? M : never) : never;

/** A typed wrapper's arguments: the required parameters positional in the table's order, the optional ones by name. */
export type ArgsOf<N extends WireName> = [keyof OptionsOf<N>] extends [never]
  ? RequiredArgs<Params<N>>
  : [...RequiredArgs<Params<N>>, options?: OptionsOf<N>];

/** A group of the client derived from the table: each method's arguments from its entry, its answer as `Answers` says. */
export type GroupApi<G extends string, Answers extends { [M in MethodsOf<G>]: unknown }> = {
  [M in MethodsOf<G>]: (...args: ArgsOf<`${G}.${M}` & WireName>) => Promise<Answers[M]>;
};

/** The report group: each answers its rows, or one bare number where the table says it may (reportShapes.ts). */
export type ReportApi = GroupApi<"report", { [R in ReportName]: ReportAnswer<R> }>;

/** Options of getTotalTransfer and getTotalHits (`type`: 1 today, 2 current hour, 3 a range). */
export type TotalOptions = OptionsOf<"report.getTotalTransfer">;
/** Options of the reports over a date range (getCacheHitStats has all of them). */
export type ReportRangeOptions = OptionsOf<"report.getCacheHitStats">;
/** Options of account.getBandwidth. */
export type BandwidthOptions = OptionsOf<"account.getBandwidth">;
