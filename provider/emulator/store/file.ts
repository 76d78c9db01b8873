/**
 * The file-backed store: the memory store plus a JSON file rewritten atomically (temp, fsync, rename), writes coalesced
 * (`flush()` resolves once a write that includes the change is on disk), locked while open, checked when loaded.
 */
import { constants as fsConstants, promises as fs } from "fs";
import * as path from "path";
import { randomBytes } from "crypto";
import { nameProblem } from "../handlers/zone-rules";
import { asId, INT32_MAX } from "../../api/ids";
import { decodeUtf8, forbiddenXmlChar, isStruct, type WireOut } from "../../api/xmlrpc";
import { DataFileLock, DataFileLockedError } from "./lock";
import { MemoryStore } from "./memory";
import { USER_FIELDS, type StoreOptions, type StoreSnapshot } from "./store";
import { STORED_SHAPES } from "../zone-fields";
import { preview, printable } from "../../api/terminalText";

type Shapes = typeof STORED_SHAPES;

/** The data file cannot be used; the message names the file and says why. */
export class DataFileError extends Error {
  constructor(file: string, reason: string) {
    // No program prefix: the CLI adds "cdn-emulator: " once, a program sees the bare reason.
    super(`cannot use data file ${file}: ${reason}`);
    this.name = "DataFileError";
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => isStruct(value as WireOut);
const has = (o: object, key: unknown) => typeof key === "string" && Object.prototype.hasOwnProperty.call(o, key);

/** The layout the file is written in; it changes only with a migration from the one before. */
const DATA_VERSION = 2;
/** `MIGRATIONS[n]` turns a file of version n into one of version n + 1; the version changes only with one. */
const MIGRATIONS: Readonly<Record<number, (data: Record<string, unknown>) => Record<string, unknown>>> = {
  // Up to 0.1.0 a zone held every kind's strings, "" where unset or not its kind's: the empty ones go (a zone's own
  // are filled again at load), a value in another kind's field stays (and is refused, naming it).
  1: ({ zones, ...data }) => {
    const unset = (z: unknown) => (isRecord(z) ? Object.fromEntries(Object.entries(z).filter(([, v]) => v !== "")) : z);
    return { ...data, version: 2, zones: Array.isArray(zones) ? zones.map(unset) : zones };
  },
};

/** An id by the one rule (api/ids.ts), held as a JSON number. */
const isWireId = (value: unknown): value is number => typeof value === "number" && asId(value) !== undefined;

/** The first of `fields` of `entry` that is not a string XML can carry, as a problem of `label`. */
function stringsProblem(label: string, entry: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    if (typeof entry[f] !== "string") return `${label}.${f} is not a string`;
    const bad = forbiddenXmlChar(entry[f] as string);
    if (bad) return `${label}.${f} holds ${bad}, a character XML does not allow`;
  }
  return undefined;
}

/**
 * The problem of zone entry `i`, or undefined once the optional strings of its kind it lacks are filled with "";
 * `seen` holds the ids (`#1`) and names (`<kind>\n<name>`, lowercase) of the entries before it.
 */
function zoneProblem(i: number, z: unknown, shapes: Shapes, seen: Map<string, number>): string | undefined {
  if (!isRecord(z)) return `zones[${i}] is not an object`;
  const what = [
    typeof z.kind === "string" ? printable(z.kind, 20) : "",
    Number.isSafeInteger(z.id) ? String(z.id) : "",
    typeof z.name === "string" ? preview(z.name, 70) : "",
  ].filter(Boolean);
  const label = what.length ? `zones[${i}] (${what.join(" ")})` : `zones[${i}]`;
  if (!has(shapes, z.kind)) return `${label} has no known kind (${Object.keys(shapes).join(", ")})`;
  const shape = shapes[z.kind as string];
  if (!isWireId(z.id)) return `${label} has an id that is not an integer from 1 to ${INT32_MAX}`;
  if (seen.has(`#${z.id}`)) return `${label} repeats the id of zones[${seen.get(`#${z.id}`)}]`;
  seen.set(`#${z.id}`, i);
  const lacking = [...shape].find(([f, required]) => required && !has(z, f));
  if (lacking) return `${label} lacks ${lacking[0]}, which a ${z.kind} must have`;
  for (const f of shape.keys()) if (!has(z, f)) z[f] = "";
  const unknown = Object.keys(z).find((f) => !shape.has(f) && !["id", "kind", "createdAt"].includes(f));
  if (unknown) return `${label} has ${preview(unknown)}, a field a ${z.kind} does not have`;
  const problem = stringsProblem(label, z, [...shape.keys()]);
  if (problem) return problem;
  const badName = nameProblem(z.name as string);
  if (badName) return `${label} has a name create would refuse: ${badName}`;
  const key = `${z.kind}\n${(z.name as string).toLowerCase()}`;
  if (seen.has(key))
    return `${label} repeats the name of zones[${seen.get(key)}] (names are unique per kind without regard to case)`;
  seen.set(key, i);
  return typeof z.createdAt === "number" ? undefined : `${label}.createdAt is not a number`;
}

/**
 * A data file's text as a snapshot of this version (migrated from an older one, a zone's missing optional strings
 * filled), or the first reason it cannot be; `shapes` are the stored shapes of the kinds' table, or a test's.
 */
export function snapshotOf(text: string, shapes: Shapes = STORED_SHAPES): StoreSnapshot | string {
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed)) return "the top level is not a JSON object";
    data = parsed;
  } catch (error) {
    return `it is not valid JSON (${(error as Error).message})`;
  }
  for (let v = data.version; typeof v === "number" && v in MIGRATIONS; v = data.version) data = MIGRATIONS[v](data);
  if (data.version !== DATA_VERSION)
    return `unsupported version ${JSON.stringify(data.version)} (this emulator reads 1 to ${DATA_VERSION})`;
  // INT32_MAX + 1 is the counter after the last possible id was handed out.
  const next = data.nextZoneId as number;
  if (!Number.isSafeInteger(next) || next < 1 || next > INT32_MAX + 1)
    return `nextZoneId ${JSON.stringify(next)} is not an integer from 1 to ${INT32_MAX + 1}`;
  if (!Array.isArray(data.zones) || !Array.isArray(data.users)) return "zones and users must be arrays";
  const seen = new Map<string, number>();
  for (const [i, z] of data.zones.entries()) {
    const problem = zoneProblem(i, z, shapes, seen);
    if (problem) return problem;
  }
  const userIds = new Set<number>();
  for (const [i, u] of data.users.entries()) {
    if (!isRecord(u) || !isWireId(u.id)) return `users[${i}] lacks an integer id from 1 to ${INT32_MAX}`;
    if (userIds.has(u.id)) return `users[${i}] repeats user id ${u.id}`;
    userIds.add(u.id);
    const problem = stringsProblem(`users[${i}]`, u, USER_FIELDS);
    if (problem) return problem;
  }
  return data as unknown as StoreSnapshot;
}

/** The file's text, or undefined when it does not exist; opened non-blocking, so a FIFO is refused, not waited on. */
async function readSnapshotText(file: string): Promise<string | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DataFileError(file, (error as Error).message);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      const what = ["a directory", "a FIFO", "a socket"][
        [stat.isDirectory(), stat.isFIFO(), stat.isSocket()].indexOf(true)
      ];
      throw new DataFileError(file, `it is ${what ?? "a device"}, not a regular file`);
    }
    const text = decodeUtf8(await handle.readFile());
    if (text === undefined) throw new DataFileError(file, "it is not valid UTF-8; fix or remove it");
    return text;
  } catch (error) {
    throw error instanceof DataFileError ? error : new DataFileError(file, (error as Error).message);
  } finally {
    await handle.close();
  }
}

export class FileStore extends MemoryStore {
  /** The revision the last write started from (-1: the file does not hold the state). */
  private written = 0;
  /** The write that has been asked for but not started; later changes join it. */
  private queued: Promise<void> | undefined;
  /** The end of the chain of writes, never rejected. */
  private tail: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly lock: DataFileLock,
    options: StoreOptions,
    snapshot?: StoreSnapshot,
  ) {
    super(options, snapshot);
  }

  /** Opens `file`: its directory made, its lock taken, loaded (an invalid one an error, never a silent reset). */
  static async open(file: string, options: StoreOptions): Promise<FileStore> {
    const resolved = path.resolve(file);
    const fail = (why: string) => (error: unknown) => {
      throw new DataFileError(resolved, why ? `${why} (${(error as Error).message})` : (error as Error).message);
    };
    await fs.mkdir(path.dirname(resolved), { recursive: true }).catch(fail("its directory cannot be created"));
    const lock = await DataFileLock.acquire(resolved).catch((error: unknown) =>
      fail(error instanceof DataFileLockedError ? "" : "its lock file cannot be written")(error),
    );
    try {
      const text = await readSnapshotText(resolved);
      const snapshot = text === undefined ? undefined : snapshotOf(text);
      if (typeof snapshot === "string") throw new DataFileError(resolved, `${snapshot}; fix or remove it`);
      const store = new FileStore(resolved, lock, options, snapshot);
      store.written = snapshot ? 0 : -1;
      await store.flush().catch(fail(""));
      return store;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  flush(): Promise<void> {
    if (this.queued) return this.queued;
    if (this.written === this.revision) return this.tail;
    const write = this.tail.then(() => {
      this.queued = undefined;
      this.written = this.revision;
      return this.write().catch((error: unknown) => {
        this.written = -1; // the next flush tries again with the whole state
        throw error;
      });
    });
    this.queued = write;
    this.tail = write.catch(() => undefined);
    return write;
  }

  /** Writes the state as it is now (taken before the first await). */
  private async write(): Promise<void> {
    const text = JSON.stringify({ version: DATA_VERSION, ...this.snapshot() }, null, 1);
    const temp = path.join(
      path.dirname(this.file),
      `.${path.basename(this.file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
    );
    const handle = await fs.open(temp, "w", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, this.file).catch(async (error: unknown) => {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    });
  }

  /** Waits for pending writes, then releases the lock so another emulator may use the file. */
  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.lock.release();
  }
}
