/**
 * A zone's outputs from inputs, a create answer, a listZones row and earlier outputs: one function, so no step
 * disagrees, and the one place server text enters the state, made printable (docs/reliability.md).
 */
import { DeploymentIdentity, renamedUrl } from "./identity";
import { ACCOUNT, ComputedSpec, FieldSpec, RESOURCE_NAME, ZONE_ID, ZoneSpec, type Props } from "../specs";
import { nameFromUrl } from "../../api/normalize";
import { printable } from "../../api/terminalText";
import { sameLabel, ZoneRow } from "./zoneLookup";

export const declared = (v: unknown): boolean => v !== undefined && v !== null;

/** What toOutputs is built from; only `inputs` and `id` are required. */
export interface OutputSources {
  inputs: Props;
  id: number;
  /** The create answer, for a zone made now. */
  created?: Props;
  /** The zone's listZones row, when it was just read. */
  row?: ZoneRow;
  /** The outputs before this operation. */
  previous?: Props;
  /** The account and deployment: records the account, and builds `cdnUrl` where the API gave none. */
  identity?: DeploymentIdentity;
}

/** Builds the full output set of a zone. */
export function toOutputs(spec: ZoneSpec, src: OutputSources): Props {
  const { inputs, id, created, row } = src;
  const previous = src.previous ?? {};
  const out: Props = {};
  for (const f of spec.fields) {
    // A live row may carry only `id` (§2.2): a field the row lacks keeps its declared or earlier value.
    let v =
      row && f.listed && declared(row[f.wire])
        ? row[f.wire]
        : declared(inputs[f.input])
          ? inputs[f.input]
          : previous[f.input];
    // A name read from a stream URL's host (a live row without `name`) may differ from the zone's only in case.
    const earlier = declared(previous[f.input]) ? previous[f.input] : inputs[f.input];
    if (row && f.wire === "name" && nameFromUrl(row) && sameLabel(v, earlier)) v = earlier;
    // A field never set is listed as "": absent, unless an older state records "" (dropping it reads as a change).
    if (v === "" && !declared(inputs[f.input]) && previous[f.input] === undefined) continue;
    if (declared(v)) out[f.input] = v;
  }
  if (declared(inputs.adopt)) out.adopt = inputs.adopt;
  out[ZONE_ID] = id;
  for (const c of spec.computed) {
    out[c.output] = c.deliveryHost
      ? deliveryHost(out.name, src, previous)
      : (computedValue(c, created, row, previous) ?? "");
  }
  const account = src.identity?.account ?? previous[ACCOUNT];
  if (declared(account)) out[ACCOUNT] = account;
  const resourceName = inputs[RESOURCE_NAME] ?? previous[RESOURCE_NAME];
  if (typeof resourceName === "string") out[RESOURCE_NAME] = resourceName;
  for (const [k, v] of Object.entries(out)) if (typeof v === "string") out[k] = printable(v);
  return out;
}

function computedValue(c: ComputedSpec, created?: Props, row?: ZoneRow, previous: Props = {}): unknown {
  if (created && c.fromCreate && declared(created[c.wire])) return String(created[c.wire]);
  if (row && c.fromList && declared(row[c.wire])) return String(row[c.wire]);
  return previous[c.output];
}

/** `cdnUrl`: the create answer's, else the old one renamed, else `<name>.<suffix>` when known, else "" (never a guess). */
function deliveryHost(name: unknown, src: OutputSources, previous: Props): string {
  const fromCreate = src.created?.cdn_url;
  if (typeof fromCreate === "string" && fromCreate !== "") return fromCreate;
  if (typeof name !== "string" || name === "") return "";
  const carried = renamedUrl(previous.cdnUrl, previous.name, name);
  if (carried) return carried;
  const suffix = src.identity?.suffix;
  return suffix ? `${name}.${suffix}` : "";
}

/**
 * The `values` struct for a method: declared fields of the given list, by wire key. A declared `""` is no value: a
 * create leaves it out (a new zone has none; recovery compares what was sent), an update sends it to clear the field.
 */
export function wireValues(fields: readonly FieldSpec[], inputs: Props, update = false): Record<string, string> {
  const values: Record<string, string> = {};
  for (const f of fields) {
    const v = inputs[f.input];
    if (typeof v === "string" && (v !== "" || update)) values[f.wire] = v;
  }
  return values;
}
