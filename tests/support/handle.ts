/**
 * The provider's side of the dynamic-provider host, in process: each operation goes through
 * `handle(1, kind, op, args)` with the arguments the host passes (values round-tripped through JSON
 * as the gRPC Struct carries them, `__provider` added to results as the host does), and
 * `deployment()` starts what a new host process would start with: no clients, no cached lists, no
 * snapshot, no claims. For provider behaviour; engine behaviour goes through the real CLI (tests/engine/).
 */
import { handle } from "../../provider/resources/host/handlers";
import { resetConnections } from "../../provider/resources/host/connection";
import { learnStack } from "../../provider/resources/host/identity";
import type { ZoneType } from "../../provider/api/kinds";

type Props = Record<string, unknown>;
const PROVIDER = "exports.handler = __provider; /* in-process stand-in for the serialized provider text */";
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v ?? {}));

/**
 * One deployment against an account: configure once, then provider operations of any kind. `instance`: the stack
 * instance's id, as the host learns it from the stack's StackId (host/identity.ts) before any zone's check.
 */
export function deployment(config: Record<string, string>, instance?: string) {
  resetConnections();
  if (instance) learnStack({ nonce: instance });
  let configured = false;
  const call = async (kind: ZoneType, op: string, args: unknown[]): Promise<unknown> => {
    if (!configured) {
      configured = true;
      // As the host passes it: a Config whose rawConfig is the whole stack config (cmd/dynamic-provider/config.js).
      await handle(1, kind, "configure", [{ config: { get: (k: string) => config[k], rawConfig: config } }]);
    }
    return handle(1, kind, op as never, args.map(wire));
  };
  const withProvider = (p: Props): Props => ({ ...p, __provider: PROVIDER });
  return {
    check: (kind: ZoneType, olds: Props, news: Props) =>
      call(kind, "check", [olds, withProvider(news)]) as Promise<{
        inputs: Props;
        failures: { property: string; reason: string }[];
      }>,
    diff: (kind: ZoneType, id: string, olds: Props, news: Props) =>
      call(kind, "diff", [id, olds, news]) as Promise<{
        changes: boolean;
        replaces: string[];
        deleteBeforeReplace: boolean;
      }>,
    create: async (kind: ZoneType, inputs: Props) => {
      const r = (await call(kind, "create", [inputs])) as { id: string; outs: Props };
      return { id: r.id, outs: withProvider(r.outs) };
    },
    read: async (kind: ZoneType, id: string, props: Props) => {
      const r = (await call(kind, "read", [id, props])) as { id: string; props: Props; inputs?: Props };
      return { ...r, props: withProvider(r.props) };
    },
    update: async (kind: ZoneType, id: string, olds: Props, news: Props) =>
      withProvider(((await call(kind, "update", [id, olds, news])) as { outs: Props }).outs),
    delete: (kind: ZoneType, id: string, props: Props) => call(kind, "delete", [id, props]),
    /** check then create, as the engine does for a new resource; throws the check failures. */
    async up(kind: ZoneType, news: Props) {
      const checked = await this.check(kind, {}, news);
      if (checked.failures.length)
        throw new Error(`check failed: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
      return { ...(await this.create(kind, checked.inputs)), inputs: checked.inputs };
    },
  };
}

/** The connection settings of an emulator, as a stack's config. */
export function accountConfig(
  emu: { url: string; apiUserId: number; apiKey: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId), "cdn:apiKey": emu.apiKey, ...extra };
}

let seq = 0;
/** A zone name no other test of the run uses: `<prefix>-<n>-<pid>`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${++seq}-${process.pid % 997}`;
}

/** Runs `f` and returns what the provider wrote to stderr meanwhile (its notes and warnings), with `f`'s result. */
export async function withStderr<T>(f: () => Promise<T>): Promise<{ result: T; stderr: string }> {
  const spy = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    const result = await f();
    return { result, stderr: spy.mock.calls.map((c) => String(c[0])).join("") };
  } finally {
    spy.mockRestore();
  }
}
