/**
 * Which account a function talks to: `opts.connection`, else the stack's `cdn:*`, else `CDN_*`. One client per
 * set of credentials lives as long as the process (it holds the keep-alive sockets).
 */
import type * as pulumi from "@pulumi/pulumi";
import { CdnClient } from "../api/client";
import { resolveCredentials, settingValues, TUNING_SETTINGS } from "../api/config";
import type { ClientSettings, CredentialName, SettingValues } from "../api/config";
import { programSources } from "../common/programConfig";
import { CdnConfigError, CdnValidationError } from "../api/errors";

/** An account given explicitly (a second account, a script without a stack): its credentials and its company. */
export type ConnectionArgs = Pick<ClientSettings, CredentialName> &
  Partial<Pick<SettingValues, "companyId" | "companyAlias">>;

/** Options every function takes. */
export interface FunctionOptions {
  /** The account to use instead of the stack's: credentials, or a client made with `new CdnClient(...)`. */
  connection?: ConnectionArgs | CdnClient;
}

/** Options of the `...Output` forms: the connection's fields may be Inputs (e.g. `config.requireSecret("otherKey")`). */
export interface FunctionOutputOptions {
  connection?: CdnClient | pulumi.Input<{ [K in keyof ConnectionArgs]: pulumi.Input<ConnectionArgs[K]> }>;
}

/** The clients made here, by account. */
const clients = new Map<string, CdnClient>();

/** The client of the account a call is for: `opts.connection`, else the stack's config, else `CDN_*`. */
export function clientFor(opts?: FunctionOptions): CdnClient {
  const given = opts?.connection;
  if (given instanceof CdnClient) return given;
  if (given !== undefined && (given === null || typeof given !== "object")) {
    throw new CdnValidationError("connection", "must be { baseUrl, apiUserId, apiKey } or a CdnClient");
  }
  const c = resolveCredentials(given ? { explicit: given } : programSources()); // given: never completed by the stack's
  const account = `${c.baseUrl}\n${c.apiUserId}\n${c.apiKey}`;
  let client = clients.get(account);
  if (!client)
    clients.set(account, (client = new CdnClient({ ...c, ...settingValues(programSources(), TUNING_SETTINGS) })));
  return client;
}

/** The company settings of the call's account: the connection's, the stack's (config, then `CDN_*`), or none for a client. */
export function company(opts?: FunctionOptions): { companyId?: number | string; companyAlias?: string } {
  const given = opts?.connection;
  if (given instanceof CdnClient) return {}; // a client of another account: the stack's company would be wrong
  // An empty field of the connection counts as not given, as an empty setting does.
  const explicit = given && { companyId: given.companyId || undefined, companyAlias: given.companyAlias || undefined };
  return settingValues(explicit ? { explicit } : programSources(), ["companyId", "companyAlias"]);
}

/** The `companyId` of report calls: `explicit`, then the connection's or stack's companyId, then its companyAlias. */
export function companyIdFor(opts?: FunctionOptions, explicit?: number | string): number | string {
  if (explicit !== undefined && explicit !== null && explicit !== "") return explicit;
  const { companyId, companyAlias } = company(opts);
  const id = companyId ?? companyAlias;
  if (id !== undefined) return id;
  throw new CdnConfigError(
    opts?.connection
      ? "companyId is needed for this report: pass companyId, or give companyId or companyAlias in opts.connection"
      : "companyId is needed for this report: pass companyId, or set cdn:companyId or cdn:companyAlias (pulumi config set), or CDN_COMPANY_ID or CDN_COMPANY_ALIAS",
    ["companyId"],
  );
}

/** Closes and forgets the clients the functions made (tests; scripts that want to exit at once). */
export function closeFunctionClients(): void {
  for (const client of clients.values()) client.close();
  clients.clear();
}
