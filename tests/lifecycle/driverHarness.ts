/**
 * Shared harness of the driver's lifecycle tests (driver*.test.ts): a real program
 * (tests/fixtures/driver/counter-program.ts) runs in a runner process and its dynamic resources go
 * through the SDK's dynamic-provider host over gRPC. The fixture's provider keeps its records in a
 * JSON file, so every test checks from outside what the provider was asked to do. Importing this
 * module registers an afterAll that checks no child process is left and removes the workspaces.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { DeployResult, DriverOptions } from "../../provider/testing";

export const PROGRAM = path.join(__dirname, "..", "fixtures", "driver", "counter-program.ts");
export const TYPE = "pulumi-nodejs:dynamic/counter:Counter";
export const urnOf = (name: string): string => `urn:pulumi:dev::project::${TYPE}::${name}`;

export interface Spec {
  name: string;
  count: number;
  [k: string]: unknown;
}
export interface Params {
  counters?: Spec[];
  gets?: Array<{ name: string; id: string }>;
  [k: string]: unknown;
}
export interface Call {
  op: string;
  id?: string;
  name?: string;
  count?: number;
  secret?: string;
  wasReady?: boolean;
  region?: string;
  apiKey?: string;
  at?: number;
}

const seenPids: number[] = [];
const workspaces: string[] = [];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A fresh directory with the provider's db file and the state file. */
export function workspace(): { db: string; state: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "driver-test-"));
  workspaces.push(dir);
  return { dir, db: path.join(dir, "db.json"), state: path.join(dir, "state.json") };
}

export function options(
  ws: { db: string; state: string },
  params: Params,
  extra: Partial<DriverOptions> = {},
): DriverOptions {
  return {
    program: PROGRAM,
    stateFile: ws.state,
    env: { DRIVER_FIXTURE: JSON.stringify({ db: ws.db, ...params }) },
    timeoutMs: 60_000,
    ...extra,
  };
}

/** Runs an operation and checks that both child processes are gone when it returns. */
export async function run(f: (o: DriverOptions) => Promise<DeployResult>, o: DriverOptions): Promise<DeployResult> {
  const r = await f(o);
  const pids = [r.processes.host, r.processes.runner].filter((p): p is number => p !== undefined);
  expect(pids.length).toBe(2);
  seenPids.push(...pids);
  for (const pid of pids) expect(alive(pid)).toBe(false);
  return r;
}

export function db(ws: { db: string }): { records: Record<string, Record<string, unknown>>; calls: Call[] } {
  return JSON.parse(fs.readFileSync(ws.db, "utf8"));
}

export function writeDb(ws: { db: string }, f: (d: ReturnType<typeof db>) => void): void {
  const d = db(ws);
  f(d);
  fs.writeFileSync(ws.db, JSON.stringify(d, null, 2));
}

export const stepOf = (r: DeployResult, name: string) => r.steps.filter((s) => s.name === name);

afterAll(() => {
  for (const pid of seenPids) expect(alive(pid)).toBe(false);
  for (const dir of workspaces) fs.rmSync(dir, { recursive: true, force: true });
});
