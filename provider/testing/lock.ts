/**
 * The stack lock: one operation at a time writes a state file, as the Pulumi CLI's backends lock a stack
 * (pkg/backend/diy/lock.go refuses an operation while another's lock file exists). Without it, two `up` runs
 * on one file each wrote their own view and the last write dropped what the other had created.
 * The lock is a file beside the state (`<state>.lock`) naming its holder; a lock whose process is gone
 * (same host, pid not running) is taken over with a warning.
 */
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/** Who holds a lock, as written in the lock file. */
export interface LockHolder {
  pid: number;
  hostname: string;
  operation: string;
  startedAt: string;
  token: string;
}

/** The error of an operation refused because another one holds the state file. */
export class StateLockedError extends Error {
  constructor(
    message: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(message);
    this.name = "StateLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const h = JSON.parse(fs.readFileSync(file, "utf8")) as LockHolder;
    return typeof h.pid === "number" && typeof h.token === "string" ? h : undefined;
  } catch {
    return undefined;
  }
}

/** A held lock of one state file. */
export class StackLock {
  private constructor(
    readonly file: string,
    private readonly token: string,
  ) {}

  /** Path of the lock file of a state file. */
  static pathOf(stateFile: string): string {
    return `${path.resolve(stateFile)}.lock`;
  }

  /**
   * Takes the lock of `stateFile` for `operation`, or throws {@link StateLockedError} at once when a running
   * operation holds it. `warn` hears about a stale lock taken over.
   */
  static acquire(stateFile: string, operation: string, warn: (message: string) => void): StackLock {
    const file = StackLock.pathOf(stateFile);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const holder: LockHolder = {
      pid: process.pid,
      hostname: os.hostname(),
      operation,
      startedAt: new Date().toISOString(),
      token: randomBytes(8).toString("hex"),
    };
    // Written whole to a private file, then linked into place: link fails when the lock exists, so the lock
    // file never appears half-written.
    const tmp = `${file}.${process.pid}.${holder.token}`;
    fs.writeFileSync(tmp, JSON.stringify(holder) + "\n", { mode: 0o600 });
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          fs.linkSync(tmp, file);
          return new StackLock(file, holder.token);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
        }
        const other = readHolder(file);
        if (other && other.hostname === os.hostname() && !isAlive(other.pid)) {
          StackLock.takeOver(file, other, warn);
          continue;
        }
        const who = other
          ? `${other.operation} (pid ${other.pid} on ${other.hostname}, since ${other.startedAt})`
          : "another operation";
        throw new StateLockedError(
          `state file ${path.resolve(stateFile)} is in use by ${who}; wait for it to end. If no such process is running, delete ${file}.`,
          other,
        );
      }
      throw new StateLockedError(`state file ${path.resolve(stateFile)}: could not take its lock ${file}`, undefined);
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }

  /** Removes a stale lock, unless another operation replaced it meanwhile (then it is put back). */
  private static takeOver(file: string, stale: LockHolder, warn: (message: string) => void): void {
    const grabbed = `${file}.${process.pid}.stale`;
    try {
      fs.renameSync(file, grabbed);
    } catch {
      return; // someone else took it over first: try again
    }
    if (readHolder(grabbed)?.token === stale.token) {
      warn(
        `took over the lock of ${stale.operation} (pid ${stale.pid}, started ${stale.startedAt}), which is no longer running; if it was writing, refresh to check the state`,
      );
    } else {
      try {
        fs.linkSync(grabbed, file); // a live lock taken by mistake: give it back
      } catch {
        // another operation holds the file now; the next attempt reads it
      }
    }
    fs.rmSync(grabbed, { force: true });
  }

  /** Releases the lock (only if it is still this operation's). */
  release(): void {
    if (readHolder(this.file)?.token === this.token) fs.rmSync(this.file, { force: true });
  }
}
