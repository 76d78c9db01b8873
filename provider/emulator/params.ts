/** Checks the parameters after the three auth ones against the method table and converts them to values by name. */
import { isYmd } from "../api/dates";
import type { MethodSpec, ParamSpec } from "../api/methods";
import { isReportName, REPORT_COLUMNS } from "../api/reportShapes";
import { Faults } from "./errors";
import { wireTypeName, type WireValue } from "../api/xmlrpc";

/** One `sortby` entry: a report column and its direction. */
export interface SortKey {
  readonly column: string;
  readonly desc: boolean;
}

/** Converted parameters by name; an omitted or `<nil/>` optional parameter is absent. */
export type Args = Readonly<Record<string, unknown>>;

/** What `mixed` companyId must equal: the account's company id or alias. */
type Company = { readonly companyId: number; readonly companyAlias: string };

const AUTH_COUNT = 3;
const SORT_RE = /^(\S+)\s+(ASC|DESC)$/i;
const NUMERIC_RE = /^\d+$/;

const label = (spec: ParamSpec, index: number) => `parameter ${index + AUTH_COUNT + 1} (${spec.name})`;
/** The INVALID_PARAMS fault of parameter `index`: its label, then `detail`. */
const invalid = (spec: ParamSpec, index: number, detail: string) => Faults.invalidParams(label(spec, index) + detail);

function expect(spec: ParamSpec, index: number, value: WireValue, want: string): never {
  throw invalid(spec, index, ` must be ${want}, got ${wireTypeName(value)}`);
}

function convertStruct(spec: ParamSpec, index: number, value: WireValue): Record<string, string> {
  if (value.t !== "struct") return expect(spec, index, value, "a struct");
  const keys = spec.keys ?? [];
  const out: Record<string, string> = {};
  for (const [key, member] of value.v) {
    if (!keys.includes(key))
      throw invalid(spec, index, ` has unknown key '${key.slice(0, 40)}' (accepted: ${keys.join(", ")})`);
    if (member.t !== "string")
      throw invalid(spec, index, `: ${spec.name}.${key} must be a string, got ${wireTypeName(member)}`);
    out[key] = member.v;
  }
  for (const key of spec.requiredKeys ?? [])
    if (!Object.prototype.hasOwnProperty.call(out, key)) throw invalid(spec, index, ` lacks required key '${key}'`);
  return out;
}

function convertSortby(method: MethodSpec, spec: ParamSpec, index: number, value: WireValue): SortKey[] {
  if (value.t !== "array") return expect(spec, index, value, "an array of strings");
  const columns: readonly string[] = isReportName(method.name) ? REPORT_COLUMNS[method.name] : [];
  return value.v.map((item, i) => {
    if (item.t !== "string") throw invalid(spec, index, ` item ${i} must be a string, got ${wireTypeName(item)}`);
    const m = SORT_RE.exec(item.v.trim());
    if (!m) throw invalid(spec, index, ` item ${i} '${item.v.slice(0, 60)}' is not '<column> ASC|DESC'`);
    if (!columns.includes(m[1]))
      throw invalid(
        spec,
        index,
        ` item ${i}: '${m[1].slice(0, 40)}' is not a column of ${method.name} (columns: ${columns.join(", ")})`,
      );
    return { column: m[1], desc: m[2].toUpperCase() === "DESC" };
  });
}

function convertMixed(spec: ParamSpec, index: number, value: WireValue, company: Company): number | string {
  if (value.t !== "int" && value.t !== "string")
    return expect(spec, index, value, "an int (company id) or a string (company alias)");
  const { companyId, companyAlias } = company;
  if (value.v === companyId || value.v === companyAlias || value.v === String(companyId)) return value.v;
  const given = value.t === "int" ? value.v : `'${value.v.slice(0, 40)}'`;
  throw Faults.notFound(`company ${given} (this account's company is ${companyId}, alias '${companyAlias}')`);
}

function convert(method: MethodSpec, spec: ParamSpec, index: number, value: WireValue, company: Company): unknown {
  switch (spec.type) {
    case "int":
      return value.t === "int" ? value.v : expect(spec, index, value, "an int");
    case "string":
      if (value.t !== "string") return expect(spec, index, value, "a string");
      if (spec.numericString) {
        if (!NUMERIC_RE.test(value.v)) throw invalid(spec, index, ` must be a string holding a non-negative integer`);
        return Number(value.v);
      }
      return value.v;
    case "date":
      if (value.t !== "string") return expect(spec, index, value, "a string date (Y-m-d)");
      if (!isYmd(value.v)) throw invalid(spec, index, ` '${value.v.slice(0, 40)}' is not a date in Y-m-d form`);
      return value.v;
    case "struct":
      return convertStruct(spec, index, value);
    case "sortby":
      return convertSortby(method, spec, index, value);
    case "mixed":
      return convertMixed(spec, index, value, company);
  }
}

/** Checks the count, order and wire types of `params` (all parameters, auth ones included). */
export function checkParams(method: MethodSpec, params: readonly WireValue[], company: Company): Args {
  const specs = method.params;
  const given = params.length - AUTH_COUNT;
  const wire = `${method.group}.${method.name}`;
  if (given > specs.length) {
    const names = ["apiUserId", "authString", "currentDate", ...specs.map((s) => s.name)].join(", ");
    throw Faults.invalidParams(
      `too many parameters: ${wire} takes at most ${specs.length + AUTH_COUNT} (${names}), got ${params.length}`,
    );
  }
  const args: Record<string, unknown> = {};
  specs.forEach((spec, i) => {
    const value = params[i + AUTH_COUNT];
    if (value === undefined || value.t === "nil") {
      if (spec.required)
        throw Faults.invalidParams(
          value
            ? `${label(spec, i)} of ${wire} must not be nil`
            : `missing ${label(spec, i)} of ${wire}, type ${spec.type}`,
        );
      return;
    }
    args[spec.name] = convert(method, spec, i, value, company);
  });
  return args;
}
