/**
 * The language host's part, in the runner process: loads the program under `pulumi.runtime.setMocks`
 * with a wrapped `MockMonitor` that hands every registration (with its resource options) to the engine,
 * inside a real `pulumi:pulumi:Stack` so the module's exports become stack outputs.
 */
import * as fs from "fs";
import * as path from "path";
import type * as resTypes from "@pulumi/pulumi/proto/resource_pb";
import type { Engine, MockResult, Registration, Reporter } from "./engine";
import { SKIPPED_MESSAGE, StepError } from "./engine";
import type { RunnerJob } from "./protocol";
import { maskForDisplay } from "./secrets";
import { loadTypeScript } from "./typescript";

type Props = Record<string, unknown>;
type Callback = (err: unknown, res?: unknown) => void;

/** The `pulumi.runtime` functions the runner uses (some are internal, hence declared here). */
interface PulumiRuntime {
  setMocks(mocks: unknown, project: string, stack: string, preview: boolean): Promise<void>;
  setMockOptions(monitor: unknown, project: string, stack: string, preview: boolean): void;
  setAllConfig(config: Record<string, string>, secretKeys: string[]): void;
  runInPulumiStack(init: () => Promise<unknown>): Promise<unknown>;
  waitForRPCs(): Promise<void>;
}

interface MockMonitorLike {
  registerResource(req: resTypes.RegisterResourceRequest, cb: Callback): Promise<void>;
  readResource(req: resTypes.ReadResourceRequest, cb: Callback): Promise<void>;
  registerResourceOutputs(req: resTypes.RegisterResourceOutputsRequest, cb: Callback): void;
}

type MockMonitorCtor = new (mocks: unknown) => MockMonitorLike;

const STACK_TYPE = "pulumi:pulumi:Stack";

/** What running the program produced. */
export interface ProgramRun {
  /** Stack outputs, secrets masked. */
  outputs: Props;
  /** True when the program itself failed (exception, rejected export), beyond step failures. */
  failed: boolean;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Minimal view of the `typescript` module used by the require hook. */
interface TypeScriptLike {
  transpileModule(
    source: string,
    options: { fileName: string; compilerOptions: Record<string, unknown> },
  ): { outputText: string };
  ModuleKind: { CommonJS: number };
  ScriptTarget: { ES2020: number };
}

/**
 * Makes `require` load `.ts` files through `typescript.transpileModule` (unless a hook such as ts-node exists).
 * `typescript` is loaded at the first `.ts` file: a `.js` program runs without it.
 */
export function installTypeScriptHook(projectDir: string): void {
  const exts = require.extensions as unknown as Record<string, (m: NodeModule, filename: string) => void>;
  if (exts[".ts"]) return;
  let ts: TypeScriptLike | undefined;
  exts[".ts"] = (m, filename) => {
    ts ??= loadTypeScript<TypeScriptLike>(projectDir, `run the TypeScript file ${filename}`);
    const source = fs.readFileSync(filename, "utf8");
    const out = ts.transpileModule(source, {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2020, // keeps async methods native, so serialized providers capture no helpers
        esModuleInterop: true,
        useDefineForClassFields: false,
        inlineSourceMap: true,
      },
    });
    (m as unknown as { _compile(code: string, filename: string): void })._compile(out.outputText, filename);
  };
}

/** The engine's URN rule: children of the root stack get no parent type prefix; others `parentType$type`. */
function newUrn(job: { stack: string; project: string }, parent: string, type: string, name: string): string {
  let qualified = type;
  if (parent) {
    const parentType = parent.split("::")[2];
    if (parentType && parentType !== STACK_TYPE) qualified = `${parentType}$${type}`;
  }
  return `urn:pulumi:${job.stack}::${job.project}::${qualified}::${name}`;
}

/**
 * The URNs of a registration's `aliases` (`collapseAliasToUrn`, step_generator.go): a URN as given, or a spec
 * whose empty fields default to the resource's own name, type, parent, project and stack.
 */
export function aliasUrns(job: { stack: string; project: string }, req: resTypes.RegisterResourceRequest): string[] {
  const urns = [...req.getAliasurnsList()];
  for (const a of req.getAliasesList()) {
    const spec = a.getSpec();
    if (!spec) {
      if (a.getUrn()) urns.push(a.getUrn());
      continue;
    }
    const parent = spec.getNoparent() ? "" : spec.getParenturn() || req.getParent();
    const where = { stack: spec.getStack() || job.stack, project: spec.getProject() || job.project };
    urns.push(newUrn(where, parent, spec.getType() || req.getType(), spec.getName() || req.getName()));
  }
  return [...new Set(urns)];
}

/** The options a child inherits from its parent's registration when it does not set them. */
export interface InheritedOptions {
  retainOnDelete?: boolean;
  deletedWith?: string;
}

/**
 * A registration with its options completed from its parent's, as the engine's resource monitor does for
 * `retainOnDelete` and `deletedWith` (`inheritFromParent`, source_eval.go; the SDK itself inherits `protect`).
 */
export function registrationOf(
  job: RunnerJob,
  req: resTypes.RegisterResourceRequest,
  parent: InheritedOptions = {},
): Registration {
  const ct = req.getCustomtimeouts();
  return {
    kind: "register",
    urn: newUrn(job, req.getParent(), req.getType(), req.getName()),
    type: req.getType(),
    name: req.getName(),
    custom: req.getCustom(),
    props: (req.getObject()?.toJavaScript() ?? {}) as Props,
    id: req.getImportid(),
    options: {
      protect: req.getProtect(),
      retainOnDelete: req.hasRetainondelete() ? req.getRetainondelete() : parent.retainOnDelete,
      deletedWith: req.getDeletedwith() || parent.deletedWith || undefined,
      deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
      ignoreChanges: req.getIgnorechangesList(),
      replaceOnChanges: req.getReplaceonchangesList(),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      customTimeouts: {
        create: ct?.getCreate() || undefined,
        update: ct?.getUpdate() || undefined,
        delete: ct?.getDelete() || undefined,
      },
    },
    dependencies: req.getDependenciesList(),
    parent: req.getParent(),
    aliases: aliasUrns(job, req),
  };
}

function readRegistrationOf(job: RunnerJob, req: resTypes.ReadResourceRequest): Registration {
  return {
    kind: "read",
    urn: newUrn(job, req.getParent(), req.getType(), req.getName()),
    type: req.getType(),
    name: req.getName(),
    custom: true,
    props: (req.getProperties()?.toJavaScript() ?? {}) as Props,
    id: req.getId(),
    options: {
      ignoreChanges: [],
      replaceOnChanges: [],
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      customTimeouts: {},
    },
    dependencies: req.getDependenciesList(),
    parent: req.getParent(),
  };
}

/**
 * Wraps the SDK's MockMonitor: the request of each RegisterResource/ReadResource is handed synchronously to
 * the mocks' `newResource` (which MockMonitor calls before its first await), and the stack's outputs are kept.
 */
function driverMonitorClass(Base: MockMonitorCtor, job: RunnerJob) {
  return class DriverMonitor extends Base {
    pending: Registration | undefined;
    stackOutputs: Props | undefined;
    /** The options each registered URN passes on to its children. */
    readonly goals = new Map<string, InheritedOptions>();
    /** URNs whose step failed or was skipped under continueOnError: answered FAIL or SKIP. */
    readonly results = new Map<string, "fail" | "skip">();

    newUrn(parent: string, type: string, name: string): string {
      return newUrn(job, parent, type, name);
    }

    registerResource(req: resTypes.RegisterResourceRequest, cb: Callback): Promise<void> {
      const reg = registrationOf(job, req, this.goals.get(req.getParent()));
      this.goals.set(reg.urn, { retainOnDelete: reg.options.retainOnDelete, deletedWith: reg.options.deletedWith });
      this.pending = reg;
      // A result other than SUCCESS makes the SDK keep unknown outputs unknown (runtime/resource.js).
      const answer: Callback = (err, res) => {
        const result = this.results.get(reg.urn);
        if (!err && result)
          (res as resTypes.RegisterResourceResponse).setResult(
            result === "fail" ? 1 /* Result.FAIL */ : 2 /* Result.SKIP */,
          );
        cb(err, res);
      };
      try {
        return super.registerResource(req, answer);
      } finally {
        this.pending = undefined;
      }
    }

    readResource(req: resTypes.ReadResourceRequest, cb: Callback): Promise<void> {
      this.pending = readRegistrationOf(job, req);
      try {
        return super.readResource(req, cb);
      } finally {
        this.pending = undefined;
      }
    }

    registerResourceOutputs(req: resTypes.RegisterResourceOutputsRequest, cb: Callback): void {
      if (req.getUrn().split("::")[2] === STACK_TYPE) {
        this.stackOutputs = (req.getOutputs()?.toJavaScript() ?? {}) as Props;
      }
      super.registerResourceOutputs(req, cb);
    }
  };
}

/** What the mocks need of the monitor: the registration it captured, and where a step's failure is kept. */
interface CapturingMonitor {
  pending: Registration | undefined;
  readonly results: Map<string, "fail" | "skip">;
}

/**
 * The mocks whose `newResource` deploys the registration the monitor captured through `engine`. The monitor
 * is made from the mocks, so it is read through `monitor()` once it exists.
 */
function deployingMocks(engine: Engine, monitor: () => CapturingMonitor | undefined) {
  return {
    newResource: (args: { type: string; name: string }): Promise<MockResult> => {
      const m = monitor();
      const reg = m?.pending;
      if (m) m.pending = undefined;
      if (!reg) return Promise.reject(new Error(`driver: no request captured for ${args.type} ${args.name}`));
      return engine.register(reg).then((r) => {
        if (r.result) monitor()?.results.set(reg.urn, r.result);
        return r;
      });
    },
    call: (args: { token: string }): Promise<Props> =>
      Promise.reject(
        new Error(`invoke ${args.token} is not supported by the driver (dynamic providers have no functions)`),
      ),
  };
}

/** Requires the program and runs it, as the Node.js language host does: a lone default export is the program; a function is called. */
async function runModule(programPath: string): Promise<unknown> {
  let mod = require(programPath);
  if (
    mod &&
    typeof mod === "object" &&
    Object.getOwnPropertyDescriptor(mod, "default") !== undefined &&
    Object.keys(mod).length === 1
  ) {
    mod = mod.default;
  }
  return await (typeof mod === "function" ? mod() : mod);
}

/** Reports each of the program's own errors once: those that only repeat a failed step were reported with it. */
function reportProgramErrors(errors: readonly unknown[], engine: Engine, report: Reporter): void {
  const isRepeat = (e: unknown): boolean =>
    e instanceof StepError ||
    messageOf(e).includes(SKIPPED_MESSAGE) ||
    engine.reported.some((m) => messageOf(e).includes(m));
  const seen = new Set<string>();
  for (const e of errors.filter((e) => !isRepeat(e))) {
    const m = messageOf(e);
    if (seen.has(m)) continue;
    seen.add(m);
    report.error(`program failed: ${m}`);
    if (e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  }
}

/**
 * Runs the program once under mocks whose `newResource` deploys through `engine`.
 * Program exceptions and unhandled rejections are reported as errors (those that only repeat a failed step are not).
 */
export async function runProgram(job: RunnerJob, engine: Engine, report: Reporter): Promise<ProgramRun> {
  const preview = job.op === "preview";
  const fromProject = (id: string): string => require.resolve(id, { paths: [job.projectDir] });
  const pulumi = require(fromProject("@pulumi/pulumi")) as { runtime: PulumiRuntime };
  const { MockMonitor } = require(fromProject("@pulumi/pulumi/runtime/mocks")) as { MockMonitor: MockMonitorCtor };

  const programErrors: unknown[] = [];
  const onUnhandled = (e: unknown): void => {
    programErrors.push(e);
  };
  process.on("unhandledRejection", onUnhandled);
  process.on("uncaughtException", onUnhandled);

  const DriverMonitor = driverMonitorClass(MockMonitor, job);
  let monitor: InstanceType<typeof DriverMonitor> | undefined = undefined;
  const mocks = deployingMocks(engine, () => monitor);
  // The program's functions call the account (the emulator), not `mocks.call`: see functions/mocks.ts.
  monitor = Object.assign(new DriverMonitor(mocks), { [Symbol.for("pulumi-cdn-zones.liveFunctions")]: true });

  await pulumi.runtime.setMocks(mocks, job.project, job.stack, preview);
  pulumi.runtime.setMockOptions(monitor, job.project, job.stack, preview);
  pulumi.runtime.setAllConfig({ ...job.config, ...job.secretConfig }, Object.keys(job.secretConfig));

  process.chdir(job.projectDir);
  installTypeScriptHook(job.projectDir);
  const programPath = path.resolve(job.program);
  try {
    await pulumi.runtime.runInPulumiStack(() => runModule(programPath));
  } catch (e) {
    programErrors.push(e);
  }
  // Let every registration and step started by the program (or its applies) finish.
  await pulumi.runtime.waitForRPCs().catch((e: unknown) => programErrors.push(e));
  await engine.idle();
  await pulumi.runtime.waitForRPCs().catch((e: unknown) => programErrors.push(e));
  await new Promise((r) => setImmediate(r));

  process.off("unhandledRejection", onUnhandled);
  process.off("uncaughtException", onUnhandled);
  reportProgramErrors(programErrors, engine, report);
  return {
    outputs: maskForDisplay(monitor.stackOutputs ?? {}) as Props,
    failed: programErrors.length > 0,
  };
}
