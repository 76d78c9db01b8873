/**
 * The engine's debug log (`pulumi up --debug`): a dynamic provider's stderr is shown to every user, twice
 * (docs/pulumi-engine.md). The engine passes its address as the host's last argument (provider_plugin.go), and its
 * `Log` takes a severity: docs/resources.md, "What the provider says".
 *
 * Needed by: tests/engine/first-minutes.test.ts (five zones: no line per zone, `--debug` shows each timing). Goes
 * when the SDK's host connects `pulumi.log` to the engine (it reads PULUMI_NODEJS_ENGINE, set only for programs).
 */
import { hostSdkRoot } from "./sdk";

/** Sends one line to the engine's debug log; never throws, never waits. */
type Send = (line: string) => void;

/** undefined: not opened yet; null: no engine to send to (not a host started by an engine, or it failed). */
let send: Send | null | undefined;

/**
 * The engine's address, when this process is the SDK's dynamic-provider host and was started by an engine:
 * its last argument, `127.0.0.1:<port>`. A host started by hand with port 0 has no engine to send to.
 */
export function engineAddress(
  argv: readonly string[] = process.argv,
  main: string | undefined = require.main?.filename,
): string | undefined {
  if (hostSdkRoot(main) === undefined || argv.length < 3) return undefined;
  const last = argv[argv.length - 1];
  const m = /^(?:127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})$/.exec(last);
  return m && Number(m[1]) > 0 && Number(m[1]) < 65536 ? last : undefined;
}

/** Opens a client of the engine's Engine service with the host's own SDK (its generated stubs and its gRPC). */
function open(): Send | null {
  const address = engineAddress();
  const root = hostSdkRoot();
  if (address === undefined || root === undefined) return null;
  const log = engineLogger(address, (id) => require(require.resolve(id, { paths: [root] })));
  // A dynamic provider is never told the resource's URN: the line goes under the stack.
  return log && ((line) => void log("DEBUG", line, ""));
}

/** A severity of the engine's `Log` (pulumirpc.LogSeverity). */
export type Severity = "DEBUG" | "INFO" | "WARNING" | "ERROR";

/**
 * A sender to the engine's `Log` at `address` with the SDK's modules `load` gives (null when it lacks the stubs);
 * `urn` "" is the stack. Never throws; settles once sent. The provider plugin uses it too (plugin/serve.ts).
 */
export function engineLogger(
  address: string,
  load: (id: "@grpc/grpc-js" | "@pulumi/pulumi/proto/engine_grpc_pb" | "@pulumi/pulumi/proto/engine_pb") => unknown,
): ((s: Severity, line: string, urn: string) => Promise<void>) | null {
  try {
    const grpc = load("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
    const stubs = load("@pulumi/pulumi/proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
    const messages = load("@pulumi/pulumi/proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
    const client = new stubs.EngineClient(address, grpc.credentials.createInsecure());
    return (severity, line, urn) => {
      const req = new messages.LogRequest();
      req.setSeverity(messages.LogSeverity[severity]);
      req.setMessage(line);
      req.setUrn(urn);
      req.setEphemeral(false);
      // A line the engine can no longer take (it is closing) is a line lost, nothing more.
      return new Promise<void>((resolve) => client.log(req, () => resolve()));
    };
  } catch {
    return null; // an SDK without these modules: the caller writes the line itself
  }
}

/** Sends `line` to the engine's debug log; false when this host has no engine to send to (the caller decides). */
export function engineDebug(line: string): boolean {
  if (send === undefined) send = open();
  if (send === null) return false;
  send(line);
  return true;
}
