/**
 * The engine's working copy of the state, written to disk after every change (never during a preview).
 */
import { loadStateFile, writeStateFile } from "./state";
import type { PendingOperation, StackState, StateResource } from "./types";

/** In-memory state of one operation, backed by the state file. */
export class StateStore {
  readonly state: StackState;
  /** False when the file did not exist before this operation. */
  readonly existed: boolean;
  private readonly salt: string;

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
        `state file ${file} belongs to ${loaded.state.project}/${loaded.state.stack}, not ${project}/${stack}`,
      );
    }
    this.state = loaded.state;
    this.salt = loaded.salt;
    this.existed = loaded.exists;
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
  }

  /** Removes an entry. */
  remove(entry: StateResource): void {
    const i = this.state.resources.indexOf(entry);
    if (i >= 0) this.state.resources.splice(i, 1);
  }

  /** Records that a provider operation is starting (so a crash in the middle leaves a trace). */
  beginOperation(op: PendingOperation): void {
    this.state.pendingOperations = [...(this.state.pendingOperations ?? []), op];
    this.save();
  }

  /** Records that the operation on `urn` has ended (the caller saves afterwards). */
  endOperation(urn: string): void {
    this.state.pendingOperations = (this.state.pendingOperations ?? []).filter((o) => o.urn !== urn);
  }

  /** Writes the state atomically (no-op during a preview). */
  save(): void {
    if (this.writable) writeStateFile(this.file, this.state, this.passphrase, this.salt);
  }
}
