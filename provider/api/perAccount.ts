/**
 * One client per account for the life of a process (it holds the account's keep-alive sockets),
 * tuned by the settings table. The resources' host (resources/host/connection.ts) and the functions
 * (functions/connection.ts) each keep one of these, with their own sources of settings; this is
 * the one place that says what identifies an account and which settings tune its client.
 */
import { createHash } from "crypto";
import { CdnClient, type CdnClientOptions } from "./client";
import { resolveClientOptions, type TuningSources } from "./clientOptions";
import type { Credentials } from "./config";

/** Values kept per account (base URL, API user id, API key), each made once around its own client. */
export class PerAccount<V> {
  private readonly byAccount = new Map<string, V>();

  constructor(
    /** What is kept for an account, made from its new client. */
    private readonly make: (client: CdnClient) => V,
    /** The client inside a kept value, for `clear()` to close. */
    private readonly clientOf: (value: V) => CdnClient,
    /** Options of every client made here that are not settings (such as where progress lines go). */
    private readonly clientOptions: Pick<CdnClientOptions, "onWaiting"> = {},
  ) {}

  /** The value for `credentials`; on first use, a client tuned from `settings` (a malformed value throws naming it). */
  get(credentials: Credentials, settings: TuningSources): V {
    const { baseUrl, apiUserId, apiKey } = credentials;
    // A digest, so the map never holds the key itself.
    const key = createHash("sha256").update(`${baseUrl}\n${apiUserId}\n${apiKey}`).digest("hex");
    let value = this.byAccount.get(key);
    if (!value) {
      value = this.make(
        new CdnClient(resolveClientOptions({ ...this.clientOptions, baseUrl, apiUserId, apiKey }, settings)),
      );
      this.byAccount.set(key, value);
    }
    return value;
  }

  /** Closes every client and forgets them all. */
  clear(): void {
    for (const v of this.byAccount.values()) this.clientOf(v).close();
    this.byAccount.clear();
  }
}
