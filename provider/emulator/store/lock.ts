/**
 * The data file's lock, `<file>.lock` (pid, host, start, token): two emulators on one file would hand out the same
 * ids. Hand-written: Node has no flock, and proper-lockfile judges staleness by mtime, not by the holder's pid.
 */
import { promises as fs } from "fs";
import * as os from "os";
import { randomBytes } from "crypto";

/** `token` is random per lock, so a release never removes a lock another emulator took over. */
type LockHolder = { readonly pid: number } & Readonly<Record<"host" | "startedAt" | "token", string>>;

/** The data file is locked by another emulator (or its lock file is unreadable); the message says which. */
export class DataFileLockedError extends Error {
  constructor(lockFile: string, holder: LockHolder | undefined) {
    super(
      holder
        ? `it is in use by another emulator (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}); stop that emulator or use another data file (lock file ${lockFile})`
        : `its lock file ${lockFile} cannot be read; remove it if no emulator uses the file`,
    );
  }
}

/** Rounds of waiting for another emulator's take-over of the same stale lock, a few ms each. */
const ATTEMPTS = 200;

/** Hard-links `from` to `to`; false when `to` exists (the atomic "create if absent" of the lock). */
async function linked(from: string, to: string): Promise<boolean> {
  try {
    await fs.link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** The holder a lock file names; "missing" when there is no such file, undefined when it cannot be read. */
async function readHolder(file: string): Promise<LockHolder | "missing" | undefined> {
  try {
    const data = JSON.parse(await fs.readFile(file, "utf8")) as Partial<LockHolder>;
    const fields = [typeof data.host, typeof data.startedAt, typeof data.token];
    return Number.isSafeInteger(data.pid) && fields.every((t) => t === "string") ? (data as LockHolder) : undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : undefined;
  }
}

/** Whether a lock was left by a process of this host that no longer runs (EPERM: it runs under another user). */
function stale(holder: LockHolder | "missing" | undefined): holder is LockHolder {
  if (typeof holder !== "object" || holder.host !== os.hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "EPERM";
  }
}

/** A held lock; release() removes the lock file if it is still ours. */
export class DataFileLock {
  private released = false;

  private constructor(
    readonly lockFile: string,
    readonly token: string,
  ) {}

  /** Takes the lock of `file` (written whole, then hard-linked into place; a stale one replaced under a guard). */
  static async acquire(file: string): Promise<DataFileLock> {
    const lockFile = `${file}.lock`;
    const guard = `${lockFile}.takeover`;
    const token = randomBytes(8).toString("hex");
    const holder: LockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), token };
    const temp = `${lockFile}.${process.pid}.${token}.tmp`;
    await fs.writeFile(temp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
    let current: LockHolder | "missing" | undefined;
    try {
      for (let attempt = 0; attempt <= ATTEMPTS; attempt++) {
        if (await linked(temp, lockFile)) return new DataFileLock(lockFile, token);
        // Gone between our link and our read (released, or mid take-over): try again, never call it unreadable.
        current = await readHolder(lockFile);
        if (current === "missing") continue;
        if (!stale(current)) throw new DataFileLockedError(lockFile, current);
        if (await linked(temp, guard)) {
          try {
            // Still that stale lock? Then replace it; an emulator arriving meanwhile may link its own first.
            const now = await readHolder(lockFile);
            if (typeof now === "object" && now.token === current.token) {
              await fs.unlink(lockFile);
              if (await linked(temp, lockFile)) return new DataFileLock(lockFile, token);
            }
          } finally {
            await DataFileLock.removeIfOurs(guard, token);
          }
        } else {
          // Another emulator is taking over: wait for it. A guard its dead owner left would block every start.
          if (stale(await readHolder(guard))) await fs.unlink(guard).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      throw new DataFileLockedError(lockFile, current === "missing" ? undefined : current);
    } finally {
      await fs.unlink(temp).catch(() => undefined);
    }
  }

  private static async removeIfOurs(file: string, token: string): Promise<void> {
    const holder = await readHolder(file);
    if (typeof holder === "object" && holder.token === token) await fs.unlink(file).catch(() => undefined);
  }

  /** Removes the lock file when it still holds this lock. Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await DataFileLock.removeIfOurs(this.lockFile, this.token);
  }
}
