/**
 * The JSON state file: load with secrets decrypted, write atomically with secrets in envelopes.
 */
import * as fs from "fs";
import * as path from "path";
import { decryptValue, deriveKey, encryptValue, isEnvelope, newSalt, resolvePassphrase } from "./crypto";
import type { StackState, StateResource } from "./types";

/** The file as stored: secret values are envelopes, the salt of the key derivation sits beside them. */
interface StateFileJson extends Omit<StackState, "resources"> {
  encryptionSalt?: string;
  resources: StateResource[];
}

/** A loaded state with what is needed to write it back. */
export interface LoadedState {
  state: StackState;
  salt: string;
  /** False when the file did not exist (the state is empty). */
  exists: boolean;
}

function mapValues(obj: Record<string, unknown>, f: (k: string, v: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = f(k, v);
  return out;
}

function decryptDeep(key: () => Buffer, v: unknown): unknown {
  if (isEnvelope(v)) return decryptValue(key(), v);
  if (Array.isArray(v)) return v.map((e) => decryptDeep(key, e));
  if (typeof v === "object" && v !== null)
    return mapValues(v as Record<string, unknown>, (_k, e) => decryptDeep(key, e));
  return v;
}

/** Loads a state file, or an empty state when it does not exist. */
export function loadStateFile(
  file: string,
  passphrase: string | undefined,
  project: string,
  stack: string,
): LoadedState {
  if (!fs.existsSync(file)) {
    return { state: { version: 1, project, stack, resources: [] }, salt: newSalt(), exists: false };
  }
  let json: StateFileJson;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8")) as StateFileJson;
  } catch (e) {
    throw new Error(`state file ${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (json.version !== 1 || !Array.isArray(json.resources)) {
    throw new Error(`state file ${file} is not a version 1 driver state`);
  }
  const salt = json.encryptionSalt ?? newSalt();
  let key: Buffer | undefined;
  const getKey = (): Buffer => (key ??= deriveKey(resolvePassphrase(passphrase), salt));
  const resources = json.resources.map((r) => ({
    ...r,
    inputs: decryptDeep(getKey, r.inputs ?? {}) as Record<string, unknown>,
    outputs: decryptDeep(getKey, r.outputs ?? {}) as Record<string, unknown>,
  }));
  const state: StackState = { version: 1, project: json.project, stack: json.stack, resources };
  if (json.pendingOperations?.length) state.pendingOperations = json.pendingOperations;
  return { state, salt, exists: true };
}

/** Writes the state, secret keys of every resource in envelopes, through a temporary file and a rename. */
/** Each entry's sealed JSON text, kept while the entry object lives: entries are not changed after they are stored. */
export type EntryTextCache = WeakMap<StateResource, string>;

/**
 * Writes the state atomically (temporary file, then rename). With `cache`, an entry already
 * written is not encrypted and serialized again: a deployment writes after every step, so without
 * it the work grows with the square of the number of resources.
 */
export function writeStateFile(
  file: string,
  state: StackState,
  passphrase: string | undefined,
  salt: string,
  cache?: EntryTextCache,
): void {
  let key: Buffer | undefined;
  const getKey = (): Buffer => (key ??= deriveKey(resolvePassphrase(passphrase), salt));
  const seal = (r: StateResource, props: Record<string, unknown>): Record<string, unknown> => {
    const secret = new Set(r.secretKeys ?? []);
    return mapValues(props, (k, v) => (secret.has(k) && v !== undefined ? encryptValue(getKey(), v) : v));
  };
  const entryText = (r: StateResource): string => {
    let text = cache?.get(r);
    if (text === undefined) {
      text = indent(JSON.stringify({ ...r, inputs: seal(r, r.inputs), outputs: seal(r, r.outputs) }, null, 2), 4);
      cache?.set(r, text);
    }
    return text;
  };
  // The same document JSON.stringify(json, null, 2) would give, assembled from the entries' texts.
  const lines = [
    "{",
    `  "version": 1,`,
    `  "project": ${JSON.stringify(state.project)},`,
    `  "stack": ${JSON.stringify(state.stack)},`,
    `  "encryptionSalt": ${JSON.stringify(salt)},`,
  ];
  const pending = state.pendingOperations?.length ? state.pendingOperations : undefined;
  const resources = state.resources.length ? `[\n${state.resources.map(entryText).join(",\n")}\n  ]` : "[]";
  lines.push(`  "resources": ${resources}${pending ? "," : ""}`);
  if (pending) lines.push(`  "pendingOperations": ${indent(JSON.stringify(pending, null, 2), 2).trimStart()}`);
  lines.push("}");
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, lines.join("\n") + "\n", { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function indent(text: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return text
    .split("\n")
    .map((l) => pad + l)
    .join("\n");
}

/**
 * Reads a driver state file with its secrets decrypted.
 * @param passphrase defaults to `PULUMI_CONFIG_PASSPHRASE`, else the documented dev passphrase.
 */
export function readState(stateFile: string, passphrase?: string): StackState {
  if (!fs.existsSync(stateFile)) throw new Error(`state file ${stateFile} does not exist`);
  return loadStateFile(stateFile, passphrase, "", "").state;
}
