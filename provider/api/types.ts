/** The client's argument and answer types, derived from the method table as Octokit derives its endpoint types. */
import type { Group, MethodEntry, MethodOf, WireName } from "./methods";
import type { ZoneKind } from "./kinds";
import type { BandwidthAnswer } from "./normalize";
import type { ReportAnswer, ReportName } from "./reportShapes";
import type { UserRow } from "./wire";
import type { CreateResultOf, ZoneRowOf } from "./zoneFields";
import type { ZONE_KIND_TABLE } from "./zoneKinds";

/** A date parameter: `Y-m-d` text, or a `Date` (sent as its UTC calendar day). */
export type DateArg = string | Date;

/** A `struct` parameter: the keys its entry lists (a zone kind's, from the kinds' table), the required ones required. */
type StructOf<P> = P extends {
  readonly keys: readonly (infer K extends string)[];
  readonly requiredKeys: readonly (infer R)[];
}
  ? Flat<{ [k in R & string]: string } & { [k in Exclude<K, R>]?: string }>
  : Record<string, string | undefined>;

/** The TypeScript type a caller passes for each wire type. */
type ArgTypes = { int: number; string: string; date: DateArg; sortby: string[]; mixed: number | string };
/** The TypeScript type a caller passes for one parameter spec: its `enum`, or its wire type's. */
export type ArgOf<P> = P extends { readonly enum: readonly (infer E)[] }
  ? E
  : P extends { readonly numericString: true }
    ? number | string
    : P extends { readonly type: "struct" }
      ? StructOf<P>
      : P extends { readonly type: infer T extends keyof ArgTypes }
        ? ArgTypes[T]
        : never;

type Param<N extends WireName> = MethodOf<N>["params"][number];
type Flat<T> = { [K in keyof T]: T[K] };
/** A method's parameters by name, its one argument (Octokit's shape): the required ones required, the others optional. */
export type ParamsOf<N extends WireName> = Flat<
  { [P in Param<N> as P extends { readonly required: true } ? P["name"] : never]: ArgOf<P> } & {
    [P in Param<N> as P extends { readonly required: true } ? never : P["name"]]?: ArgOf<P>;
  }
>;

/** The kind whose XML-RPC group is G. */
type KindOf<G> = { [K in ZoneKind]: (typeof ZONE_KIND_TABLE)[K]["group"] extends G ? K : never }[ZoneKind];
/** What a method resolves to, by the `returns` of its entry, once normalized (normalize.ts). */
type Answers<M extends MethodEntry> = {
  create: CreateResultOf<KindOf<M["group"]>>;
  zones: ZoneRowOf<KindOf<M["group"]>>[];
  status: void;
  boolean: true;
  rows: UserRow[];
  userUpdate: UserRow | undefined;
  bandwidth: BandwidthAnswer;
  report: M["name"] extends ReportName ? ReportAnswer<M["name"]> : never;
};
/** One method: its parameters in one object, which may be left out when none is required. */
type MethodFn<N extends WireName, A = ParamsOf<N>, R = Answers<MethodOf<N>>[MethodOf<N>["returns"]]> =
  Partial<A> extends A ? (params?: A) => Promise<R> : (params: A) => Promise<R>;

/** The client's groups, named as the API names them (`client.report.getNodeHits({ companyId, ... })`). */
export type ClientGroups = {
  readonly [G in Group]: { [N in WireName as N extends `${G}.${infer M}` ? M : never]: MethodFn<N> };
};

/** The report group: each answers its rows, or one bare number where the table says it may (reportShapes.ts). */
export type ReportApi = ClientGroups["report"];
/** Kind K's group (`client.pullzone`): create, update, listZones, and delete where the API can delete the kind. */
export type ZoneApi<K extends ZoneKind> = ClientGroups[(typeof ZONE_KIND_TABLE)[K]["group"]];

/** Parameters of getTotalTransfer and getTotalHits (`type`: 1 today, 2 current hour, 3 a range). */
export type TotalOptions = ParamsOf<"report.getTotalTransfer">;
/** Parameters of the reports over a date range (getCacheHitStats has all of them). */
export type ReportRangeOptions = ParamsOf<"report.getCacheHitStats">;
/** Parameters of account.getBandwidth. */
export type BandwidthOptions = ParamsOf<"account.getBandwidth">;
