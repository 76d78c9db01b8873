/**
 * The engine's working copy of the state (never written during a preview). Changes are written at
 * most every SAVE_INTERVAL_MS and at the end: rewriting the whole file after every step made a
 * deployment's cost grow with the square of its size (docs/performance.md). What must be on disk
 * before a provider call, the record that an operation is starting, is appended to a small
 * journal beside the file at once, so a crash in the middle still leaves its trace.
 */
import * as fs from "fs";
import { EntryTextCache, loadStateFile, writeStateFile } from "./state";
import type { PendingOperation, StackState, StateResource } from "./types";

/** Longest time a change waits before it is written. */
export const SAVE_INTERVAL_MS = 100;

/** In-memory state of one operation, backed by the state file. */
export class StateStore {
  readonly state: StackState;
  /** False when the file did not exist before this operation. */
  readonly existed: boolean;
  private readonly salt: string;
  private readonly texts: EntryTextCache = new WeakMap();
  private readonly journal: string;
  /** Operations this run began (a pending operation of an earlier run is not ended by this run's). */
  private readonly begun = new WeakSet<PendingOperation>();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = 0;
  /** The file as this store last saw it (read or written): another writer changes it. */
  private stamp: string;
  /** Set when a scheduled write found the file changed by another writer; every later write fails with it. */
  private conflict: Error | undefined;

  /**
   * @param writable false for a preview: changes stay in memory
   */
  constructor(
    private readonly file: string,
    private readonly passphrase: string | undefined,
    project: string,
    stack: string,
    private readonly writable: boolean,
  ) {
    const loaded = loadStateFile(file, passphrase, project, stack);
    if (loaded.exists && (loaded.state.project !== project || loaded.state.stack !== stack)) {
      throw new Error(
        `state file ${file} belongs to ${loaded.state.project}/${loaded.state.stack}, not ${project}/${stack}: pass project: "${loaded.state.project}" and stack: "${loaded.state.stack}" to use it (the project defaults to the name in the program's Pulumi.yaml)`,
      );
    }
    this.state = loaded.state;
    this.salt = loaded.salt;
    this.existed = loaded.exists;
    this.journal = `${file}.journal`;
    this.stamp = stampOf(file);
    this.replayJournal();
  }

  /** Operations a crashed run began after its last full write: they join the pending ones. */
  private replayJournal(): void {
    let text: string;
    try {
      text = fs.readFileSync(this.journal, "utf8");
    } catch {
      return;
    }
    const pending = [...(this.state.pendingOperations ?? [])];
    for (const line of text.split("\n")) {
      try {
        const op = JSON.parse(line) as PendingOperation;
        if (op && typeof op.urn === "string" && !pending.some((p) => p.urn === op.urn && p.op === op.op))
          pending.push(op);
      } catch {
        // a line cut by the crash
      }
    }
    if (pending.length) this.state.pendingOperations = pending;
    // The next write takes them into the file and empties the journal.
    this.dirty = true;
  }

  /** All entries in state order. */
  get resources(): StateResource[] {
    return this.state.resources;
  }

  /** The live (not pending-delete) entry of a URN. */
  find(urn: string): StateResource | undefined {
    return this.state.resources.find((r) => r.urn === urn && !r.pendingDelete);
  }

  /** Stores `entry` at the end (registration order), removing `replacing` or else the live entry of its URN. */
  put(entry: StateResource, replacing?: StateResource): void {
    const old = replacing ?? this.find(entry.urn);
    if (old) this.remove(old);
    this.state.resources.push(entry);
  }

  /** Replaces an entry where it stands. */
  replaceInPlace(old: StateResource, entry: StateResource): void {
    const i = this.state.resources.indexOf(old);
    if (i >= 0) this.state.resources[i] = entry;
    else this.state.resources.push(entry);
  }

  /** Marks an entry as the old half of a replacement, to be deleted at the end of the update. */
  markPendingDelete(entry: StateResource): void {
    entry.pendingDelete = true;
    this.texts.delete(entry);
  }

  /** Removes an entry. */
  remove(entry: StateResource): void {
    const i = this.state.resources.indexOf(entry);
    if (i >= 0) this.state.resources.splice(i, 1);
  }

  /** Records that a provider operation is starting, on disk before it starts (so a crash in the middle leaves a trace). */
  beginOperation(op: PendingOperation): void {
    this.begun.add(op);
    this.state.pendingOperations = [...(this.state.pendingOperations ?? []), op];
    if (this.writable) fs.appendFileSync(this.journal, JSON.stringify(op) + "\n", { mode: 0o600 });
    this.save();
  }

  /**
   * Records that the operation this run began on `urn` has ended (the caller saves afterwards). A pending
   * operation of an earlier run stays: it records what that run may have done.
   */
  endOperation(urn: string): void {
    const left = (this.state.pendingOperations ?? []).filter((o) => o.urn !== urn || !this.begun.has(o));
    this.state.pendingOperations = left.length > 0 ? left : undefined;
  }

  /** Schedules a write of the state: at once if none happened lately, else within SAVE_INTERVAL_MS (no-op during a preview). */
  save(): void {
    if (!this.writable) return;
    this.dirty = true;
    if (this.timer) return;
    const wait = Math.max(0, this.lastWrite + SAVE_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      try {
        this.flush();
      } catch (e) {
        this.conflict ??= e as Error; // reported by the final flush
      }
    }, wait);
    this.timer.unref();
  }

  /**
   * Writes pending changes now (atomically: temporary file, then rename), then empties the journal.
   * Never overwrites a file another writer changed since this store read it (that would drop what the other
   * operation recorded): this store's state then goes to a `.conflict` file beside it, and this throws.
   */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.conflict) throw this.conflict;
    if (!this.writable || (!this.dirty && this.existedOnDisk())) return;
    this.dirty = false;
    this.lastWrite = Date.now();
    if (stampOf(this.file) !== this.stamp) {
      const aside = `${this.file}.conflict-${process.pid}.json`;
      writeStateFile(aside, this.state, this.passphrase, this.salt);
      this.conflict = new Error(
        `state file ${this.file} was changed by another operation after this one read it; it was not overwritten, and this operation's state is in ${aside} (compare the two, keep one, then refresh)`,
      );
      throw this.conflict;
    }
    writeStateFile(this.file, this.state, this.passphrase, this.salt, this.texts);
    this.stamp = stampOf(this.file);
    // Every journaled operation still pending is in the file now.
    fs.rmSync(this.journal, { force: true });
  }

  private existedOnDisk(): boolean {
    return fs.existsSync(this.file);
  }
}

/** Identity of the file's current content for change detection: inode, size and modification time. */
function stampOf(file: string): string {
  try {
    const st = fs.statSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return "absent";
  }
}
