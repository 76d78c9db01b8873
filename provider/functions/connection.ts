/**
 * Which account a function talks to, in the program's process: `opts.connection` when given,
 * else the stack's config (`cdn:*`), else the `CDN_*` environment variables. One client per set
 * of credentials is kept for the life of the process (it holds the keep-alive sockets).
 */
import type * as pulumi from "@pulumi/pulumi";
import { CdnClient } from "../api/client";
import { resolveCredentials } from "../api/config";
import { PerAccount } from "../api/perAccount";
import { programConfig as stackConfig, programSetting } from "../common/programConfig";
import { CdnConfigError, CdnValidationError } from "../api/errors";

/** Credentials of an account, given explicitly (a second account, a script without a stack). */
export interface ConnectionArgs {
  baseUrl: string;
  apiUserId: number | string;
  apiKey: string;
  /** Company id for the reports of this account (else `companyAlias`). */
  companyId?: number | string;
  /** Company alias of this account: `purgeZone` targets `<zone>.<alias>`, reports accept it as companyId. */
  companyAlias?: string;
}

/** Options every function takes. */
export interface FunctionOptions {
  /** The account to use instead of the stack's: credentials, or a client made with `new CdnClient(...)`. */
  connection?: ConnectionArgs | CdnClient;
}

/** Options of the `...Output` forms: the connection's fields may be Inputs (e.g. `config.requireSecret("otherKey")`). */
export interface FunctionOutputOptions {
  connection?: CdnClient | pulumi.Input<{ [K in keyof ConnectionArgs]: pulumi.Input<ConnectionArgs[K]> }>;
}

/** A company setting from the stack's config, else the environment (common/programConfig.ts). */
export const setting = programSetting;

const clients = new PerAccount<CdnClient>(
  (client) => client,
  (client) => client,
);

function isClient(v: unknown): v is CdnClient {
  return v instanceof CdnClient;
}

/** The client of the account a call is for: `opts.connection`, else the stack's config, else `CDN_*`. */
export function clientFor(opts?: FunctionOptions): CdnClient {
  const given = opts?.connection;
  if (isClient(given)) return given;
  if (given !== undefined && (given === null || typeof given !== "object")) {
    throw new CdnValidationError("connection", "must be { baseUrl, apiUserId, apiKey } or a CdnClient");
  }
  const c = given
    ? resolveCredentials({
        explicit: { baseUrl: given.baseUrl, apiUserId: given.apiUserId, apiKey: given.apiKey },
        env: {},
      })
    : resolveCredentials({ config: stackConfig, env: process.env });
  return clients.get(c, { config: stackConfig, env: process.env });
}

/**
 * The company alias: `explicit`, then the connection's `companyAlias`, then (for the stack's own
 * account only) `cdn:companyAlias` / `CDN_COMPANY_ALIAS`. Undefined when none is set.
 */
export function companyAliasFor(opts?: FunctionOptions, explicit?: string): string | undefined {
  if (explicit !== undefined && explicit !== "") return explicit;
  const given = opts?.connection;
  if (given && !isClient(given)) return given.companyAlias || undefined;
  if (given) return undefined; // a CdnClient of another account: the stack's alias would be wrong
  return setting("companyAlias");
}

/**
 * The `companyId` of report calls: `explicit`, then the connection's companyId or companyAlias,
 * then (for the stack's own account only) `cdn:companyId`, `CDN_COMPANY_ID`, `cdn:companyAlias`,
 * `CDN_COMPANY_ALIAS`. Throws a `CdnConfigError` naming where it may be given.
 */
export function companyIdFor(opts?: FunctionOptions, explicit?: number | string): number | string {
  if (explicit !== undefined && explicit !== null && explicit !== "") return explicit;
  const given = opts?.connection;
  if (given && !isClient(given)) {
    const v = given.companyId ?? given.companyAlias;
    if (v !== undefined && v !== "") return v;
  } else if (!given) {
    const v = setting("companyId") ?? setting("companyAlias");
    if (v !== undefined) return v;
  }
  throw new CdnConfigError(
    given
      ? "companyId is needed for this report: pass companyId, or give companyId or companyAlias in opts.connection"
      : "companyId is needed for this report: pass companyId, or set cdn:companyId or cdn:companyAlias (pulumi config set), or CDN_COMPANY_ID or CDN_COMPANY_ALIAS",
    ["companyId"],
  );
}

/** Closes and forgets the clients the functions made (tests; scripts that want to exit at once). */
export function closeFunctionClients(): void {
  clients.clear();
}
