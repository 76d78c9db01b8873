/**
 * A gRPC client of the dynamic-provider host (`pulumirpc.ResourceProvider`), built from the copies of
 * `@grpc/grpc-js`, the generated messages and `Struct` that the project's `@pulumi/pulumi` uses.
 * Every call has a deadline; errors come back as {@link HostCallError}.
 */
import * as path from "path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as provGrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as statusTypes from "@pulumi/pulumi/proto/status_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";

type Props = Record<string, unknown>;

/** The `ErrorResourceInitFailed` detail of a failed create or update: the resource exists but is not healthy. */
export interface InitFailure {
  id: string;
  properties: Props;
  reasons: string[];
}

/** A failed host call. `initFailure` is set when the host packed `ErrorResourceInitFailed` in the status details. */
export class HostCallError extends Error {
  constructor(
    message: string,
    readonly method: string,
    readonly code: number | undefined,
    readonly initFailure?: InitFailure,
  ) {
    super(message);
    this.name = "HostCallError";
  }
}

/** Identity of the resource a call is about (the host ignores it, the engine sends it). */
export interface Target {
  urn: string;
  type: string;
  name: string;
}

/** Result of Check. */
export interface CheckResult {
  inputs: Props;
  failures: Array<{ property: string; reason: string }>;
}

/** Result of Diff: `changes` is undefined for DIFF_UNKNOWN (the engine then compares inputs itself). */
export interface DiffResult {
  changes: boolean | undefined;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** Result of Read: an empty id means the resource no longer exists. */
export interface ReadResult {
  id: string;
  properties: Props;
  inputs?: Props;
}

interface Modules {
  grpc: typeof grpcTypes;
  prov: typeof provTypes;
  provGrpc: typeof provGrpcTypes;
  status: typeof statusTypes;
  struct: typeof structTypes;
}

function loadModules(projectDir: string): Modules {
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [projectDir] }));
  const fromPulumi = (id: string): string => require.resolve(id, { paths: [pulumiDir] });
  return {
    grpc: require(fromPulumi("@grpc/grpc-js")),
    prov: require(path.join(pulumiDir, "proto", "provider_pb")),
    provGrpc: require(path.join(pulumiDir, "proto", "provider_grpc_pb")),
    status: require(path.join(pulumiDir, "proto", "status_pb")),
    struct: require(fromPulumi("google-protobuf/google/protobuf/struct_pb")),
  };
}

/** Parses `grpc-status-details-bin` for an `ErrorResourceInitFailed` (see `grpcResponseFromError` in the host). */
function initFailureOf(m: Modules, err: grpcTypes.ServiceError): InitFailure | undefined {
  const bins = err.metadata?.get("grpc-status-details-bin") ?? [];
  for (const bin of bins) {
    if (!Buffer.isBuffer(bin)) continue;
    const status = m.status.Status.deserializeBinary(new Uint8Array(bin));
    for (const any of status.getDetailsList()) {
      if (!any.getTypeUrl().endsWith("pulumirpc.ErrorResourceInitFailed")) continue;
      const detail = m.prov.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
      return {
        id: detail.getId(),
        properties: (detail.getProperties()?.toJavaScript() ?? {}) as Props,
        reasons: detail.getReasonsList(),
      };
    }
  }
  return undefined;
}

/**
 * What the engine needs of a dynamic-provider host: the real one over gRPC ({@link HostClient}) or a fake
 * in process, so the engine's rules can be tested without starting processes.
 */
export interface ProviderHost {
  configure(config: Record<string, string>): Promise<{ acceptSecrets: boolean }>;
  check(t: Target, olds: Props, news: Props): Promise<CheckResult>;
  diff(t: Target, id: string, olds: Props, news: Props, oldInputs: Props, ignoreChanges: string[]): Promise<DiffResult>;
  create(t: Target, properties: Props, timeoutSec: number): Promise<{ id: string; properties: Props }>;
  read(t: Target, id: string, properties: Props, inputs: Props): Promise<ReadResult>;
  update(
    t: Target,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    ignoreChanges: string[],
    timeoutSec: number,
  ): Promise<Props>;
  delete(t: Target, id: string, properties: Props, oldInputs: Props, timeoutSec: number): Promise<void>;
  close(): void;
}

/** Client of one host process. Configure it before any other call. */
export class HostClient implements ProviderHost {
  private readonly m: Modules;
  private readonly client: provGrpcTypes.ResourceProviderClient;

  /**
   * @param projectDir where `@pulumi/pulumi` is resolved from
   * @param address `127.0.0.1:<port>` printed by the host
   * @param deadline epoch ms after which calls fail
   */
  constructor(
    projectDir: string,
    address: string,
    private readonly deadline: number,
  ) {
    this.m = loadModules(projectDir);
    this.client = new this.m.provGrpc.ResourceProviderClient(address, this.m.grpc.credentials.createInsecure());
  }

  /** Closes the channel. */
  close(): void {
    this.client.close();
  }

  /** Names the resource a request is about: every resource RPC carries its URN, name and type. */
  private target(
    req: { setUrn(v: string): unknown; setName(v: string): unknown; setType(v: string): unknown },
    t: Target,
  ): void {
    req.setUrn(t.urn);
    req.setName(t.name);
    req.setType(t.type);
  }

  private struct(v: Props): structTypes.Struct {
    return this.m.struct.Struct.fromJavaScript(v as Record<string, structTypes.JavaScriptValue>);
  }

  private call<Req, Res>(method: string, req: Req): Promise<Res> {
    const { grpc } = this.m;
    if (Date.now() >= this.deadline) {
      return Promise.reject(
        new HostCallError(`${method}: the operation's time limit was reached`, method, grpc.status.DEADLINE_EXCEEDED),
      );
    }
    type Fn = (
      r: Req,
      md: grpcTypes.Metadata,
      o: Partial<grpcTypes.CallOptions>,
      cb: (e: grpcTypes.ServiceError | null, res: Res) => void,
    ) => void;
    const fn = (this.client as unknown as Record<string, Fn>)[method].bind(this.client);
    return new Promise<Res>((resolve, reject) => {
      fn(req, new grpc.Metadata(), { deadline: new Date(this.deadline) }, (err, res) => {
        if (!err) return resolve(res);
        let message = err.details || err.message;
        if (err.code === grpc.status.DEADLINE_EXCEEDED) message = `${method} timed out (deadline exceeded)`;
        else if (err.code === grpc.status.UNAVAILABLE)
          message = `dynamic-provider host unavailable during ${method}: ${message}`;
        reject(new HostCallError(message, method, err.code, initFailureOf(this.m, err)));
      });
    });
  }

  /** Configure: the stack config as `args` (namespaced keys, secrets plain) and as `variables`. Returns acceptSecrets. */
  async configure(config: Record<string, string>): Promise<{ acceptSecrets: boolean }> {
    const req = new this.m.prov.ConfigureRequest();
    req.setArgs(this.struct(config));
    const vars = req.getVariablesMap();
    for (const [k, v] of Object.entries(config)) vars.set(k, v);
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    const res = await this.call<provTypes.ConfigureRequest, provTypes.ConfigureResponse>("configure", req);
    return { acceptSecrets: res.getAcceptsecrets() };
  }

  /** Check(olds = previous inputs, news). */
  async check(t: Target, olds: Props, news: Props): Promise<CheckResult> {
    const req = new this.m.prov.CheckRequest();
    this.target(req, t);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    const res = await this.call<provTypes.CheckRequest, provTypes.CheckResponse>("check", req);
    return {
      inputs: (res.getInputs()?.toJavaScript() ?? {}) as Props,
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** Diff(id, olds = old outputs, news = checked inputs). */
  async diff(
    t: Target,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    ignoreChanges: string[],
  ): Promise<DiffResult> {
    const req = new this.m.prov.DiffRequest();
    this.target(req, t);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setOldInputs(this.struct(oldInputs));
    req.setIgnorechangesList(ignoreChanges);
    const res = await this.call<provTypes.DiffRequest, provTypes.DiffResponse>("diff", req);
    const C = this.m.prov.DiffResponse.DiffChanges;
    const changes = res.getChanges();
    return {
      changes: changes === C.DIFF_SOME ? true : changes === C.DIFF_NONE ? false : undefined,
      replaces: res.getReplacesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
    };
  }

  /** Create(properties = checked inputs). */
  async create(t: Target, properties: Props, timeoutSec: number): Promise<{ id: string; properties: Props }> {
    const req = new this.m.prov.CreateRequest();
    this.target(req, t);
    req.setProperties(this.struct(properties));
    req.setTimeout(timeoutSec);
    req.setPreview(false);
    const res = await this.call<provTypes.CreateRequest, provTypes.CreateResponse>("create", req);
    return { id: res.getId(), properties: (res.getProperties()?.toJavaScript() ?? {}) as Props };
  }

  /** Update(id, olds = old outputs, news = checked inputs). */
  async update(
    t: Target,
    id: string,
    olds: Props,
    news: Props,
    oldInputs: Props,
    ignoreChanges: string[],
    timeoutSec: number,
  ): Promise<Props> {
    const req = new this.m.prov.UpdateRequest();
    this.target(req, t);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setOldInputs(this.struct(oldInputs));
    req.setIgnorechangesList(ignoreChanges);
    req.setTimeout(timeoutSec);
    req.setPreview(false);
    const res = await this.call<provTypes.UpdateRequest, provTypes.UpdateResponse>("update", req);
    return (res.getProperties()?.toJavaScript() ?? {}) as Props;
  }

  /** Delete(id, properties = old outputs). */
  async delete(t: Target, id: string, properties: Props, oldInputs: Props, timeoutSec: number): Promise<void> {
    const req = new this.m.prov.DeleteRequest();
    this.target(req, t);
    req.setId(id);
    req.setProperties(this.struct(properties));
    req.setOldInputs(this.struct(oldInputs));
    req.setTimeout(timeoutSec);
    await this.call("delete", req);
  }

  /** Read(id, properties, inputs): for `Resource.get` the program's props, for refresh the old outputs and inputs. */
  async read(t: Target, id: string, properties: Props, inputs: Props): Promise<ReadResult> {
    const req = new this.m.prov.ReadRequest();
    this.target(req, t);
    req.setId(id);
    req.setProperties(this.struct(properties));
    req.setInputs(this.struct(inputs));
    const res = await this.call<provTypes.ReadRequest, provTypes.ReadResponse>("read", req);
    const ins = res.getInputs();
    return {
      id: res.getId(),
      properties: (res.getProperties()?.toJavaScript() ?? {}) as Props,
      ...(ins ? { inputs: ins.toJavaScript() as Props } : {}),
    };
  }
}
