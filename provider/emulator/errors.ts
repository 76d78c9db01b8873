/** The emulator's faults, codes and strings in one catalog; no string holds the API key, an authString or a password. */
import { FAULT } from "../api/wire";
import { AUTH_TIME_ZONE, AUTH_WINDOW_MS } from "../api/auth";

/** A fault a handler or a check throws; server.ts sends it as a `<fault>` response. */
export class RpcFault extends Error {
  constructor(
    readonly faultCode: number,
    readonly faultString: string,
  ) {
    super(faultString);
    this.name = "RpcFault";
  }
}

const WINDOW_MINUTES = AUTH_WINDOW_MS / 60000;
const auth = (why: string) => new RpcFault(FAULT.AUTH_FAILED, `authentication failed: ${why}`);

export const Faults = {
  parse: (detail: string) => new RpcFault(FAULT.PARSE_ERROR, `parse error: ${detail}`),
  bodyTooLarge: (max: number) =>
    new RpcFault(FAULT.INVALID_REQUEST, `invalid request: the body exceeds the emulator's limit of ${max} bytes`),
  unknownMethod: (name: string) =>
    new RpcFault(
      FAULT.METHOD_NOT_FOUND,
      `method not found: '${name.slice(0, 80)}' is not a method of this API (names are '<group>.<method>', e.g. 'cache.purge')`,
    ),
  wrongGroup: (name: string, methodGroup: string, pathGroup: string) =>
    new RpcFault(
      FAULT.METHOD_NOT_FOUND,
      `method not found: '${name}' is served at /xmlrpc/${methodGroup}, not at /xmlrpc/${pathGroup}`,
    ),
  invalidParams: (detail: string) => new RpcFault(FAULT.INVALID_PARAMS, `invalid params: ${detail}`),
  internal: (detail: string) => new RpcFault(FAULT.INTERNAL_ERROR, `internal error: ${detail}`),

  unknownUser: (id: number) => auth(`unknown apiUserId ${id}`),
  badSignature: () =>
    auth("authString does not match; it must be the lowercase hex SHA-256 of '<currentDate>:<apiKey>:<method>'"),
  uppercaseSignature: () => auth("authString must be lowercase hexadecimal"),
  groupPrefixed: (wireName: string, bare: string) =>
    auth(`authString was computed with the group prefix ('${wireName}'); hash the bare method name ('${bare}')`),
  expired: () => auth(`currentDate is older than ${WINDOW_MINUTES} minutes`),
  future: () => auth(`currentDate is more than ${WINDOW_MINUTES} minutes in the future`),
  badDate: () => auth(`currentDate must be ISO 8601 with a numeric offset, like 2026-01-15T10:00:00-08:00`),
  wrongOffset: (given: string, expected: string) =>
    auth(`currentDate offset ${given} is not the ${AUTH_TIME_ZONE} offset for that instant (${expected})`),

  liveDenied: () =>
    new RpcFault(FAULT.ACCESS_DENIED, "access denied: live zone methods are not enabled for this API key"),
  notFound: (what: string) => new RpcFault(FAULT.NOT_FOUND, `not found: ${what}`),
} as const;
