/**
 * Secret envelopes of the state file: AES-256-GCM with a key derived by scrypt from a passphrase,
 * stored in Pulumi's checkpoint shape `{ [SIG_KEY]: SECRET_SIG, ciphertext }`.
 */
import * as crypto from "crypto";
import { SECRET_SIG, SIG_KEY } from "./secrets";

/**
 * Passphrase used when neither the `passphrase` option nor `PULUMI_CONFIG_PASSPHRASE` is set.
 * It is public, so it only keeps secrets out of plain sight (diffs, greps, logs): set your own for real state.
 */
export const DEV_PASSPHRASE = "pulumi-cdn-zones-driver-insecure-dev-passphrase";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SALT_BYTES = 16;

/** A secret as stored in the state file. */
export interface SecretEnvelope {
  [SIG_KEY]: typeof SECRET_SIG;
  ciphertext: string;
}

/** The passphrase to use: the option, else `PULUMI_CONFIG_PASSPHRASE`, else {@link DEV_PASSPHRASE}. */
export function resolvePassphrase(option?: string): string {
  return option ?? process.env.PULUMI_CONFIG_PASSPHRASE ?? DEV_PASSPHRASE;
}

/** A fresh random salt, base64. */
export function newSalt(): string {
  return crypto.randomBytes(SALT_BYTES).toString("base64");
}

const keyCache = new Map<string, Buffer>();

/** Derives (and caches, scrypt being slow on purpose) the AES key for a passphrase and salt. */
export function deriveKey(passphrase: string, salt: string): Buffer {
  const cacheKey = crypto.createHash("sha256").update(passphrase).update("\0").update(salt).digest("hex");
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = crypto.scryptSync(passphrase, Buffer.from(salt, "base64"), KEY_BYTES);
    keyCache.set(cacheKey, key);
  }
  return key;
}

/** True for a state-file secret envelope. */
export function isEnvelope(v: unknown): v is SecretEnvelope {
  return (
    typeof v === "object" &&
    v !== null &&
    (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG &&
    typeof (v as Record<string, unknown>).ciphertext === "string"
  );
}

/** Encrypts any JSON value into an envelope. */
export function encryptValue(key: Buffer, value: unknown): SecretEnvelope {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value ?? null), "utf8"), cipher.final()]);
  const ciphertext = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
  return { [SIG_KEY]: SECRET_SIG, ciphertext };
}

/** Decrypts an envelope; a wrong passphrase fails with a message that says so (never with the value). */
export function decryptValue(key: Buffer, envelope: SecretEnvelope): unknown {
  const raw = Buffer.from(envelope.ciphertext, "base64");
  const iv = raw.subarray(0, IV_BYTES);
  const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const body = raw.subarray(IV_BYTES + TAG_BYTES);
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(tag);
    const text = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    return JSON.parse(text);
  } catch {
    throw new Error("cannot decrypt a secret in the state file: wrong passphrase or corrupted envelope");
  }
}
