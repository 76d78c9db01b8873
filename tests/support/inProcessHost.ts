/**
 * An in-process stand-in for the SDK's dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`),
 * so lifecycle tests drive the provider through provider/testing's `Engine` without starting two Node
 * processes per operation. It does what the host does, step for step:
 * - the `__provider` text is deserialized once per distinct text (the real text, see providerTexts.ts)
 *   and configured then, with `{ config: { get(key) } }` over the stack config;
 * - every value crosses as the gRPC Struct carries it (`Struct.fromJavaScript(...).toJavaScript()`, the
 *   google-protobuf copy of `@pulumi/pulumi`), so `undefined`, `Date` and `Buffer` fail or change as on the wire;
 * - check adds `__provider` to the inputs, diff maps `changes` to DIFF_SOME/NONE/UNKNOWN, create, update
 *   and read results get `__provider` (`resultIncludingProvider`), read returns `inputs` when given;
 * - an error with a truthy `id` from create or update is a partial failure (`ErrorResourceInitFailed`),
 *   other errors carry the status code and message the gRPC server would send.
 * The text's `require("pulumi-cdn-zones/h")` reaches provider/resources/host/handlers.ts (the TypeScript
 * source), loaded afresh for each host, as each real host process loads the package afresh.
 * What the provider writes to stderr during a call becomes the host's log, as the driver reports it.
 */
import * as path from "path";
import * as util from "util";
import { AsyncLocalStorage } from "async_hooks";
import {
  HostCallError,
  type CheckResult,
  type DiffResult,
  type ProviderHost,
  type ReadResult,
  type Target,
} from "../../provider/testing/host-client";

type Props = Record<string, unknown>;

/** The methods of a deserialized dynamic provider (`exports.handler()` of its text). */
interface DynamicProvider {
  configure?(req: { config: { get(key: string): unknown; rawConfig?: Record<string, unknown> } }): Promise<void> | void;
  check?(olds: Props, news: Props): Promise<{ inputs?: Props; failures?: Array<{ property: string; reason: string }> }>;
  diff?(
    id: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes?: boolean; replaces?: string[]; deleteBeforeReplace?: boolean }>;
  create(inputs: Props): Promise<{ id: string; outs?: Props }>;
  read?(id: string, props: Props): Promise<{ id: string; props?: Props; inputs?: Props }>;
  update?(id: string, olds: Props, news: Props): Promise<{ outs?: Props } | undefined>;
  delete?(id: string, props: Props): Promise<void>;
}

const PROVIDER_KEY = "__provider";
/** The unknown-value sentinel of the engine (`rpc.unknownValue`). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const ROOT = path.resolve(__dirname, "../..");
const HANDLERS = path.join(ROOT, "provider/resources/host/handlers");
const CONNECTION = path.join(ROOT, "provider/resources/host/connection");
/** gRPC status UNKNOWN: what the server sends for an error without an integer `code`. */
const STATUS_UNKNOWN = 2;
const STATUS_NAMES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

interface StructModule {
  Struct: { fromJavaScript(v: Props): { toJavaScript(): Props } };
}
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [ROOT] }));
const structPb = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }),
) as StructModule;
const rpc = require(path.join(pulumiDir, "runtime", "rpc")) as { unwrapRpcSecret(v: unknown): unknown };

/** A property map as it comes out of the other end of a gRPC call (throws "Unexpected struct type." as the SDK does). */
export function overTheWire(v: Props): Props {
  return structPb.Struct.fromJavaScript(v).toJavaScript();
}

/** Where the provider's stderr lines of the calls running inside an operation go. */
const logSink = new AsyncLocalStorage<(line: string) => void>();
let stderrHooked = false;

/**
 * Routes what a host call prints (`process.stderr.write`, `process.stdout.write`, `console.*`) to that
 * host's log, as the driver collects a host process's output; everything else passes through.
 */
function hookOutput(): void {
  if (stderrHooked) return;
  stderrHooked = true;
  const restore: Array<() => void> = [];
  for (const name of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[name];
    console[name] = (...args: unknown[]) => {
      const sink = logSink.getStore();
      if (!sink) return original.apply(console, args);
      for (const line of util.format(...args).split("\n")) sink(line);
    };
    restore.push(() => (console[name] = original));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write;
    stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      const sink = logSink.getStore();
      if (!sink) return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
      const text = Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk);
      for (const line of text.replace(/\n$/, "").split("\n")) sink(line);
      (rest.find((r) => typeof r === "function") as (() => void) | undefined)?.();
      return true;
    } as typeof stream.write;
    restore.push(() => (stream.write = original));
  }
  // The streams outlive this test file (jest's workers run several): put them back after it.
  afterAll(() => {
    restore.forEach((r) => r());
    stderrHooked = false;
  });
}

// Installed when a test file imports this module, so the restoring afterAll belongs to that file.
hookOutput();

/** The provider's modules as one host process holds them. */
interface HostModules {
  handlers: unknown;
  connection: { resetConnections(): void };
}

/**
 * Loads provider/resources/host/handlers.ts with module instances of its own (credentials, clients, the
 * listZones cache, the configured company alias), as a new host process would: concurrent stacks and
 * successive operations do not share them.
 */
function freshModules(): HostModules {
  let mods: HostModules | undefined;
  jest.isolateModules(() => {
    mods = { handlers: require(HANDLERS), connection: require(CONNECTION) };
  });
  return mods!;
}

/** The gRPC status code and message a thrown value reaches the client with (grpc-js `serverErrorToStatus`). */
function statusOf(e: unknown): { code: number; message: string } {
  const err = (e ?? {}) as { code?: unknown; details?: unknown; message?: unknown };
  let code = STATUS_UNKNOWN;
  let details = typeof e === "object" && e !== null && "message" in e ? String(err.message) : "Unknown Error";
  if (typeof err.code === "number" && Number.isInteger(err.code)) {
    code = err.code;
    if (typeof err.details === "string") details = err.details;
  }
  // The client's HostCallError takes `details`, or the ServiceError message when details are empty.
  return { code, message: details || `${code} ${STATUS_NAMES[code] ?? ""}: ${details}` };
}

/** Options of an in-process host. */
export interface InProcessHostOptions {
  /** Receives each line the host would print (the provider's stderr, the host's own error lines). */
  onLog?: (line: string) => void;
}

/** One "host process": its own provider cache, configuration and module instances. */
export class InProcessHost implements ProviderHost {
  private config: Props = {};
  private readonly providers = new Map<string, DynamicProvider>();
  private modules: HostModules | undefined;
  private closed = false;

  constructor(private readonly opts: InProcessHostOptions = {}) {}

  private log(line: string): void {
    this.opts.onLog?.(line);
  }

  /** Runs one RPC: inside the log sink, after the host was configured, turning throws into HostCallError. */
  private async call<T>(method: string, fn: () => Promise<T>, initFailures = false): Promise<T> {
    if (this.closed)
      throw new HostCallError(`dynamic-provider host unavailable during ${method}: channel closed`, method, 14);
    return logSink.run(
      (l) => this.log(l),
      async () => {
        try {
          return await fn();
        } catch (e) {
          if (e instanceof HostCallError) throw e;
          const err = (e ?? {}) as { id?: unknown; properties?: Props; reasons?: string[]; message?: string };
          if (initFailures) {
            // grpcResponseFromError: code UNKNOWN, the message kept; a truthy id packs ErrorResourceInitFailed.
            const message = String(err.message ?? "");
            const init = err.id
              ? { id: String(err.id), properties: overTheWire(err.properties || {}), reasons: [...(err.reasons || [])] }
              : undefined;
            throw new HostCallError(message || `${STATUS_UNKNOWN} UNKNOWN: ${message}`, method, STATUS_UNKNOWN, init);
          }
          // The host prints these errors (console.error(`${e}: ${e.stack}`)) before answering.
          this.log(`${String(e)}: ${(e as Error)?.stack}`);
          const s = statusOf(e);
          throw new HostCallError(s.message, method, s.code);
        }
      },
    );
  }

  /**
   * getProvider: deserializes a text once and configures it then. As in the host, the provider is cached
   * before its configure finishes: a configure that throws fails only the call that triggered it, and a
   * call arriving meanwhile does not wait for it.
   */
  private async provider(props: Props): Promise<DynamicProvider> {
    const text = props[PROVIDER_KEY];
    if (typeof text !== "string") throw new Error(`resource has no ${PROVIDER_KEY} text`);
    const cached = this.providers.get(text);
    if (cached) return cached;
    this.modules ??= freshModules();
    const handlers = this.modules.handlers;
    const mod: { exports: { handler?: () => DynamicProvider } } = { exports: {} };
    const requireFromText = (id: string): unknown => {
      if (id === "pulumi-cdn-zones/h") return handlers;
      // An installed package's text requires its providers/<kind> module, which would load the built
      // package outside this host's module instances: such texts belong to the real host (tests/package).
      if (id.startsWith("pulumi-cdn-zones/"))
        throw new Error(
          `in-process host: a provider text requiring '${id}' is an installed package's; run it through the real host`,
        );
      return require(require.resolve(id, { paths: [ROOT] }));
    };
    // require-from-string compiles the text as a module: `exports` and `require` are what it uses.
    new Function("exports", "require", "module", text)(mod.exports, requireFromText, mod);
    const provider = mod.exports.handler!();
    this.providers.set(text, provider);
    if (provider.configure) {
      const raw = this.config;
      // The host's Config: get(key), and the whole stack config as rawConfig (cmd/dynamic-provider/config.js).
      await provider.configure({
        config: { get: (key: string) => raw[key.includes(":") ? key : `:${key}`], rawConfig: raw },
      });
    }
    return provider;
  }

  async configure(config: Record<string, string>): Promise<{ acceptSecrets: boolean }> {
    return this.call("configure", async () => {
      const args = overTheWire(config);
      const out: Props = {};
      for (const [k, v] of Object.entries(args)) if (k !== PROVIDER_KEY) out[k] = rpc.unwrapRpcSecret(v);
      this.config = out;
      return { acceptSecrets: false };
    });
  }

  async check(_t: Target, oldsIn: Props, newsIn: Props): Promise<CheckResult> {
    return this.call("check", async () => {
      const olds = overTheWire(oldsIn);
      const news = overTheWire(newsIn);
      const provider = await this.provider(news[PROVIDER_KEY] === UNKNOWN ? olds : news);
      let inputs = news;
      let failures: Array<{ property: string; reason: string }> = [];
      if (provider.check) {
        const result = await provider.check(olds, news);
        if (result.inputs) inputs = result.inputs;
        if (result.failures) failures = result.failures;
      }
      inputs[PROVIDER_KEY] = news[PROVIDER_KEY];
      return {
        inputs: overTheWire(inputs),
        failures: failures.map((f) => ({ property: String(f.property ?? ""), reason: String(f.reason ?? "") })),
      };
    });
  }

  async diff(
    _t: Target,
    id: string,
    oldsIn: Props,
    newsIn: Props,
    _oldInputs: Props,
    _ignoreChanges: string[],
  ): Promise<DiffResult> {
    return this.call("diff", async () => {
      const olds = overTheWire(oldsIn);
      const news = overTheWire(newsIn);
      const provider = await this.provider(news[PROVIDER_KEY] === UNKNOWN ? olds : news);
      if (!provider.diff) return { changes: undefined, replaces: [], deleteBeforeReplace: false };
      const result = await provider.diff(id, olds, news);
      return {
        changes: result.changes === true ? true : result.changes === false ? false : undefined,
        replaces: result.replaces && result.replaces.length ? [...result.replaces] : [],
        deleteBeforeReplace: !!result.deleteBeforeReplace,
      };
    });
  }

  async create(_t: Target, properties: Props, _timeoutSec: number): Promise<{ id: string; properties: Props }> {
    return this.call(
      "create",
      async () => {
        const props = overTheWire(properties);
        const provider = await this.provider(props);
        const result = await provider.create(props);
        const out = overTheWire(Object.assign(result.outs || {}, { [PROVIDER_KEY]: props[PROVIDER_KEY] }));
        return { id: String(result.id ?? ""), properties: out };
      },
      true,
    );
  }

  async read(_t: Target, id: string, properties: Props, _inputs: Props): Promise<ReadResult> {
    return this.call("read", async () => {
      const props = overTheWire(properties);
      const provider = await this.provider(props);
      if (!provider.read) return { id, properties: props };
      const result = await provider.read(id, props);
      const out: ReadResult = {
        id: String(result.id ?? ""),
        properties: overTheWire(Object.assign(result.props || {}, { [PROVIDER_KEY]: props[PROVIDER_KEY] })),
      };
      if (result.inputs)
        out.inputs = overTheWire(Object.assign(result.inputs, { [PROVIDER_KEY]: props[PROVIDER_KEY] }));
      return out;
    });
  }

  async update(
    _t: Target,
    id: string,
    oldsIn: Props,
    newsIn: Props,
    _oldInputs: Props,
    _ignoreChanges: string[],
    _timeoutSec: number,
  ): Promise<Props> {
    return this.call(
      "update",
      async () => {
        const olds = overTheWire(oldsIn);
        const news = overTheWire(newsIn);
        const provider = await this.provider(news);
        let result: { outs?: Props } = {};
        if (provider.update) result = (await provider.update(id, olds, news)) || {};
        return overTheWire(Object.assign(result.outs || {}, { [PROVIDER_KEY]: news[PROVIDER_KEY] }));
      },
      true,
    );
  }

  async delete(_t: Target, id: string, properties: Props, _oldInputs: Props, _timeoutSec: number): Promise<void> {
    return this.call("delete", async () => {
      const props = overTheWire(properties);
      const provider = await this.provider(props);
      if (provider.delete) await provider.delete(id, props);
    });
  }

  /** Ends the "process": later calls fail as on a closed channel, and the provider's HTTP clients are closed. */
  close(): void {
    this.closed = true;
    this.modules?.connection.resetConnections();
  }
}
