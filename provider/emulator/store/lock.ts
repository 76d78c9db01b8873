/**
 * The lock of a data file: `<file>.lock` beside it, holding the holder's pid, host and start
 * time. Two emulators on one file would hand out the same ids and overwrite each other's
 * writes, so a second one refuses to start; a lock left by a process that no longer runs on
 * this host is taken over.
 */
import { promises as fs } from "fs";
import * as os from "os";
import { randomBytes } from "crypto";

/** What the lock file holds. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** ISO time at which the holder took the lock. */
  readonly startedAt: string;
  /** Random per lock, so a release never removes a lock another emulator took over. */
  readonly token: string;
}

/** The data file is locked by another emulator (or its lock file is unreadable); the message is the reason. */
export class DataFileLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      holder
        ? `it is in use by another emulator (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}); stop that emulator or use another data file (lock file ${lockFile})`
        : `its lock file ${lockFile} cannot be read; remove it if no emulator uses the file`,
    );
    this.name = "DataFileLockedError";
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const data = JSON.parse(text) as Partial<LockHolder>;
    if (
      Number.isSafeInteger(data.pid) &&
      typeof data.host === "string" &&
      typeof data.startedAt === "string" &&
      typeof data.token === "string"
    )
      return data as LockHolder;
  } catch {
    // not JSON: unreadable lock
  }
  return undefined;
}

/** Whether a process with this pid runs here (EPERM: it runs under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Rounds of waiting for another emulator's take-over of the same stale lock (a few ms each). */
const TAKEOVER_ATTEMPTS = 200;
const TAKEOVER_WAIT_MS = 5;

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
    return parseHolder(await fs.readFile(file, "utf8"));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : undefined;
  }
}

/** The holder, or undefined when the file is gone or unreadable (a guard or a lock no longer ours). */
async function holderOf(file: string): Promise<LockHolder | undefined> {
  const holder = await readHolder(file);
  return holder === "missing" ? undefined : holder;
}

/** A held lock; release() removes the lock file if it is still ours. */
export class DataFileLock {
  private released = false;

  private constructor(
    readonly lockFile: string,
    readonly holder: LockHolder,
  ) {}

  /**
   * Takes the lock of `file`, or throws DataFileLockedError naming the holder. The lock file is
   * written whole under a temporary name and hard-linked into place, so it is never seen half
   * written and two emulators cannot both create it. A stale lock is replaced under a second,
   * short-lived guard (`<lock>.takeover`), so of several emulators starting at once exactly one
   * gets the file.
   */
  static async acquire(file: string): Promise<DataFileLock> {
    const lockFile = `${file}.lock`;
    const holder: LockHolder = {
      pid: process.pid,
      host: os.hostname(),
      startedAt: new Date().toISOString(),
      token: randomBytes(8).toString("hex"),
    };
    const temp = `${lockFile}.${process.pid}.${holder.token}.tmp`;
    await fs.writeFile(temp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
    try {
      for (let attempt = 0; ; attempt++) {
        if (await linked(temp, lockFile)) return new DataFileLock(lockFile, holder);
        const current = await readHolder(lockFile);
        // Gone between our link and our read (released, or mid take-over): try again rather than call it unreadable.
        // Whether it is gone is what the read found: a second look could meet the lock of a take-over that finished
        // meanwhile, and the first read's failure would then be called "unreadable".
        if (current === "missing") {
          if (attempt < TAKEOVER_ATTEMPTS) continue;
          throw new DataFileLockedError(lockFile, undefined);
        }
        const stale = current !== undefined && current.host === holder.host && !alive(current.pid);
        if (!stale) throw new DataFileLockedError(lockFile, current);
        const outcome = await DataFileLock.takeOver(lockFile, current, temp, holder);
        if (outcome === "taken") return new DataFileLock(lockFile, holder);
        // "busy": another emulator is replacing the same stale lock, which takes a few file
        // operations; wait for it, then meet its lock (or the lock it left) in the next round.
        if (attempt >= TAKEOVER_ATTEMPTS) throw new DataFileLockedError(lockFile, current);
        if (outcome === "busy") await new Promise((resolve) => setTimeout(resolve, TAKEOVER_WAIT_MS));
      }
    } finally {
      await fs.unlink(temp).catch(() => undefined);
    }
  }

  /**
   * Replaces the stale lock `stale` by ours while holding the guard. "taken": ours is in place;
   * "changed": the lock is no longer that stale one (the next round reads it); "busy": another
   * emulator holds the guard.
   */
  private static async takeOver(
    lockFile: string,
    stale: LockHolder,
    temp: string,
    holder: LockHolder,
  ): Promise<"taken" | "changed" | "busy"> {
    const guard = `${lockFile}.takeover`;
    if (!(await linked(temp, guard))) {
      // A guard left by a process that died in those few operations would block every start.
      const owner = await holderOf(guard);
      if (owner && owner.host === holder.host && !alive(owner.pid)) await fs.unlink(guard).catch(() => undefined);
      return "busy";
    }
    try {
      const current = await holderOf(lockFile);
      if (current?.token !== stale.token) return "changed";
      await fs.unlink(lockFile);
      // An emulator arriving now may link its own lock first; then it holds the file, not us.
      return (await linked(temp, lockFile)) ? "taken" : "changed";
    } finally {
      if ((await holderOf(guard))?.token === holder.token) await fs.unlink(guard).catch(() => undefined);
    }
  }

  /** Removes the lock file when it still holds this lock. Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if ((await holderOf(this.lockFile))?.token === this.holder.token)
      await fs.unlink(this.lockFile).catch(() => undefined);
  }
}
