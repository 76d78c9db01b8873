/**
 * Direct checks of the zone specs: they agree with the method table, every create field reaches
 * create, every update field reaches update, and diff and update agree on every field. The
 * lifecycle functions run in-process here, against the emulator over HTTP.
 */
import { METHODS } from "../../provider/api/methods";
import { ZONE_ROW_FIELDS } from "../../provider/api/wire";
import { startEmulator } from "../../provider/emulator";
import { configure, connection, resetConnections } from "../../provider/resources/host/connection";
import { check } from "../../provider/resources/host/check";
import * as lifecycle from "../../provider/resources/host/lifecycle";
import { FieldSpec, SPECS, ZoneSpec } from "../../provider/resources/specs";
import { zoneRegistration } from "../../provider/resources/zoneResource";
import { valueOf } from "../support/fields";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let seq = 0;
const specs = Object.values(SPECS);

beforeAll(async () => {
  process.env.CDN_LOG = "quiet";
  emu = await startEmulator({ port: 0 });
  const cfg: Record<string, string> = {
    "cdn:baseUrl": emu.url,
    "cdn:apiUserId": String(emu.apiUserId),
    "cdn:apiKey": emu.apiKey,
  };
  configure({ config: { get: (k) => cfg[k] } });
});
afterAll(async () => {
  resetConnections();
  await emu.close();
});

/** A valid value for every field, and a different valid one: the name given, else tests/support/fields.ts's. */
const value = (f: FieldSpec, name: string, alt = false): string =>
  f.rule === "name" ? (alt ? `${name}-b` : name) : valueOf(f, alt ? 1 : 0);

function fullInputs(spec: ZoneSpec): Record<string, unknown> {
  const name = `${spec.group}-spec-${++seq}`;
  return Object.fromEntries(spec.fields.map((f) => [f.input, value(f, name)]));
}

const lastCall = (method: string) => [...emu.calls].reverse().find((c) => c.method === method);
const valuesOf = (call: { params: unknown[] } | undefined) =>
  (call?.params ?? []).find((p) => p !== null && typeof p === "object" && !Array.isArray(p)) as Record<string, unknown>;

describe.each(specs.map((s) => [s.type, s] as const))("%s spec", (_kind, spec) => {
  test("agrees with the method table and the listZones row", () => {
    const create = METHODS[`${spec.group}.create`].params[0].keys!;
    const update = METHODS[`${spec.group}.update`].params[1].keys!;
    expect(spec.fields.map((f) => f.wire).sort()).toEqual([...create].sort());
    expect(
      spec.fields
        .filter((f) => !f.createOnly)
        .map((f) => f.wire)
        .sort(),
    ).toEqual([...update].sort());
    const row: readonly string[] = ZONE_ROW_FIELDS[spec.group];
    for (const f of spec.fields) expect(`${f.wire}:${row.includes(f.wire)}`).toBe(`${f.wire}:${f.listed}`);
    for (const c of spec.computed) if (c.fromList) expect(row).toContain(c.wire);
  });

  test("secret fields are registered as secret outputs; the kinds the API cannot delete are retained", () => {
    const [, , props, opts] = zoneRegistration(spec.type, "r", fullInputs(spec), undefined);
    for (const f of spec.fields.filter((x) => x.secret)) expect(opts.additionalSecretOutputs).toContain(f.input);
    // The engine marks their deletes `[retain]` in a preview, and never calls them (issue 32; host/left.ts).
    expect(opts.retainOnDelete).toBe(spec.deletable ? undefined : true);
    expect(zoneRegistration(spec.type, "r", fullInputs(spec), { retainOnDelete: false })[3].retainOnDelete).toBe(false);
    expect(zoneRegistration(spec.type, "r", fullInputs(spec), { retainOnDelete: true })[3].retainOnDelete).toBe(true);
    // pulumi up --replace never calls Diff: only the resource option makes a live zone's replacement delete first.
    expect(opts.deleteBeforeReplace).toBe(spec.deletable ? true : undefined);
    expect(Object.keys(props)).toEqual(expect.arrayContaining(["zoneId", ...spec.computed.map((c) => c.output)]));
  });

  test("every create field reaches create, and diff and update agree on every field", async () => {
    const inputs = fullInputs(spec);
    const { id, outs } = await lifecycle.create(spec, connection(), inputs);
    const sent = valuesOf(lastCall(`${spec.group}.create`));
    expect(Object.keys(sent).sort()).toEqual(spec.fields.map((f) => f.wire).sort());
    for (const f of spec.fields.filter((x) => !x.secret)) expect(sent[f.wire]).toBe(inputs[f.input]);

    expect(await lifecycle.diff(spec, id, outs, inputs)).toMatchObject({ changes: false, replaces: [] });

    let olds = outs;
    for (const f of spec.fields) {
      const news = {
        ...inputs,
        ...Object.fromEntries(spec.fields.map((g) => [g.input, olds[g.input] ?? inputs[g.input]])),
        [f.input]: value(f, String(inputs.name), true),
      };
      if (f.createOnly) {
        // diff never throws (the engine calls it after every refresh read); check refuses, and update sends nothing.
        expect(await lifecycle.diff(spec, id, olds, news)).toMatchObject({ changes: true, replaces: [] });
        const checked = await check(spec, inputs, news, connection);
        expect(checked.failures).toEqual([
          expect.objectContaining({
            property: f.input,
            reason: expect.stringContaining(`'${f.input}' cannot be changed`),
          }),
        ]);
        const callsBefore = emu.calls.length;
        await expect(lifecycle.update(spec, connection(), id, olds, news)).rejects.toThrow(
          `'${f.input}' cannot be changed`,
        );
        expect(emu.calls.length).toBe(callsBefore);
        continue;
      }
      expect(await lifecycle.diff(spec, id, olds, news)).toMatchObject({ changes: true, replaces: [] });
      const before = emu.calls.length;
      const { outs: after } = await lifecycle.update(spec, connection(), id, olds, news);
      const call = emu.calls.slice(before).find((c) => c.method === `${spec.group}.update`);
      expect(Object.keys(valuesOf(call))).toEqual([f.wire]);
      expect(after[f.input]).toBe(news[f.input]);
      expect(await lifecycle.diff(spec, id, after, news)).toMatchObject({ changes: false });
      const callsBefore = emu.calls.length;
      await lifecycle.update(spec, connection(), id, after, news);
      expect(emu.calls.length).toBe(callsBefore);
      olds = after;
    }
    const read = await lifecycle.read(spec, connection(), id, olds);
    for (const f of spec.fields.filter((x) => x.listed)) expect(read.props[f.input]).toBe(olds[f.input]);
  });
});
