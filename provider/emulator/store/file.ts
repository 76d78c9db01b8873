/**
 * The file-backed store: the memory store plus a JSON file rewritten atomically (temp file in
 * the same directory, fsync, rename) after changes. Writes are serialized and coalesced: a
 * change made while a write is running joins the next write, so `flush()` resolves only once
 * a write that includes it has reached the disk.
 */
import { promises as fs } from "fs";
import * as path from "path";
import { randomBytes } from "crypto";
import type { UserRow } from "../../api/wire";
import { MemoryStore } from "./memory";
import { ZONE_KINDS, type StoreSnapshot, type StoredZone } from "./store";

const RESOLVED: Promise<void> = Promise.resolve();
const ZONE_STRING_FIELDS = ["name", "label", "origin", "vhost", "ip", "compress", "vanity_domain", "vanity_ip", "storage_location", "passwordHash"] as const;
const USER_STRING_FIELDS = ["username", "email", "fullname", "timezone", "phone"] as const;

/** The data file cannot be used; the message names the file and says why. */
export class DataFileError extends Error {
  constructor(file: string, reason: string) {
    super(`cdn-emulator: cannot use data file ${file}: ${reason}`);
    this.name = "DataFileError";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks a parsed file is a snapshot this version wrote; returns a reason when it is not. */
function snapshotProblem(data: unknown): string | undefined {
  if (!isRecord(data)) return "the top level is not a JSON object";
  if (data.version !== 1) return `unsupported version ${JSON.stringify(data.version)} (expected 1)`;
  if (!Number.isSafeInteger(data.nextZoneId)) return "nextZoneId is not an integer";
  if (!Array.isArray(data.zones) || !Array.isArray(data.users)) return "zones and users must be arrays";
  const ids = new Set<number>();
  for (const [i, z] of data.zones.entries()) {
    if (!isRecord(z) || !Number.isSafeInteger(z.id) || !ZONE_KINDS.includes(z.kind as never)) return `zones[${i}] lacks an integer id or a known kind`;
    if (ids.has(z.id as number)) return `zones[${i}] repeats id ${z.id}`;
    ids.add(z.id as number);
    for (const f of ZONE_STRING_FIELDS) if (typeof z[f] !== "string") return `zones[${i}].${f} is not a string`;
    if (typeof z.createdAt !== "number") return `zones[${i}].createdAt is not a number`;
  }
  for (const [i, u] of data.users.entries()) {
    if (!isRecord(u) || !Number.isSafeInteger(u.id)) return `users[${i}] lacks an integer id`;
    for (const f of USER_STRING_FIELDS) if (typeof u[f] !== "string") return `users[${i}].${f} is not a string`;
  }
  return undefined;
}

export class FileStore extends MemoryStore {
  private dirty = false;
  /** The write that has been asked for but not started; later changes join it. */
  private queued: Promise<void> | undefined;
  /** The end of the chain of writes, never rejected. */
  private tail: Promise<void> = RESOLVED;

  private constructor(
    readonly file: string,
    initialUsers: () => UserRow[],
    snapshot: StoreSnapshot | undefined,
  ) {
    super(initialUsers, snapshot);
  }

  /**
   * Opens `file`: a missing file starts empty (and is created at once, so a bad directory
   * fails now); a file that is not a snapshot is an error naming it, never a silent reset.
   */
  static async open(file: string, initialUsers: () => UserRow[]): Promise<FileStore> {
    const resolved = path.resolve(file);
    let snapshot: StoreSnapshot | undefined;
    try {
      const text = await fs.readFile(resolved, "utf8");
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        throw new DataFileError(resolved, `it is not valid JSON (${(error as Error).message}); fix or remove it`);
      }
      const problem = snapshotProblem(data);
      if (problem) throw new DataFileError(resolved, `${problem}; fix or remove it`);
      snapshot = data as StoreSnapshot;
    } catch (error) {
      if (error instanceof DataFileError) throw error;
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new DataFileError(resolved, (error as Error).message);
    }
    const store = new FileStore(resolved, initialUsers, snapshot);
    if (!snapshot) {
      store.dirty = true;
      try {
        await store.flush();
      } catch (error) {
        throw new DataFileError(resolved, (error as Error).message);
      }
    }
    return store;
  }

  protected changed(): void {
    this.dirty = true;
  }

  flush(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.dirty) return this.tail;
    const write = this.tail.then(() => {
      this.queued = undefined;
      this.dirty = false;
      return this.write(JSON.stringify(this.snapshot(), null, 1)).catch((error: unknown) => {
        this.dirty = true; // the next flush tries again with the whole state
        throw error;
      });
    });
    this.queued = write;
    this.tail = write.catch(() => undefined);
    return write;
  }

  private async write(text: string): Promise<void> {
    const dir = path.dirname(this.file);
    const temp = path.join(dir, `.${path.basename(this.file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    const handle = await fs.open(temp, "w", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.rename(temp, this.file);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.flush().catch(() => undefined);
  }
}

export type { StoredZone };
