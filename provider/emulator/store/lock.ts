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
    if (Number.isSafeInteger(data.pid) && typeof data.host === "string" && typeof data.startedAt === "string" && typeof data.token === "string") return data as LockHolder;
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
   * written and two emulators cannot both create it.
   */
  static async acquire(file: string): Promise<DataFileLock> {
    const lockFile = `${file}.lock`;
    const holder: LockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), token: randomBytes(8).toString("hex") };
    const temp = `${lockFile}.${process.pid}.${holder.token}.tmp`;
    await fs.writeFile(temp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
    try {
      // Two rounds: the second after removing a stale lock; losing that race to another emulator is "in use".
      for (let round = 0; round < 2; round++) {
        try {
          await fs.link(temp, lockFile);
          return new DataFileLock(lockFile, holder);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        }
        const current = parseHolder(await fs.readFile(lockFile, "utf8").catch(() => ""));
        const stale = current !== undefined && current.host === holder.host && !alive(current.pid);
        if (!stale || round === 1) throw new DataFileLockedError(lockFile, current);
        await DataFileLock.removeStale(lockFile, current, holder.token);
      }
      throw new DataFileLockedError(lockFile, undefined);
    } finally {
      await fs.unlink(temp).catch(() => undefined);
    }
  }

  /**
   * Moves the stale lock aside and checks it is the one found stale: if another emulator took the
   * lock over in between, its lock is put back, so a take-over never removes a live lock.
   */
  private static async removeStale(lockFile: string, stale: LockHolder, token: string): Promise<void> {
    const aside = `${lockFile}.${token}.stale`;
    try {
      await fs.rename(lockFile, aside);
    } catch {
      return; // gone already: the next round links ours or meets the new holder
    }
    const moved = parseHolder(await fs.readFile(aside, "utf8").catch(() => ""));
    if (moved?.token !== stale.token) await fs.link(aside, lockFile).catch(() => undefined);
    await fs.unlink(aside).catch(() => undefined);
  }

  /** Removes the lock file when it still holds this lock. Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const current = parseHolder(await fs.readFile(this.lockFile, "utf8").catch(() => ""));
    if (current?.token === this.holder.token) await fs.unlink(this.lockFile).catch(() => undefined);
  }
}
