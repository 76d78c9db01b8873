/**
 * The emulator is a local development tool, and a web page the developer opens must not be able to use it. A
 * browser can send a cross-site POST with `Content-Type: text/plain` without asking first (no CORS preflight), and
 * with DNS rebinding a page's own host name can point at 127.0.0.1. Both are refused before the body is read:
 * - a request carrying a browser's `Origin` (or `Sec-Fetch-Site`) header: API clients send neither;
 * - a request whose `Host` is a name other than `localhost`, the listen address or a name allowed with
 *   `allowedHosts` (`--allow-host`): rebinding needs a name of the attacker's, while an IP address is what a
 *   client of the emulator on this machine or across a port mapping writes. The port is not compared, so an
 *   emulator behind a port mapping (a container) keeps working.
 */
import { isIP } from "net";

/** Why a request is refused, or undefined when it may go on. */
export function browserRefusal(
  headers: { readonly [name: string]: string | string[] | undefined },
  listenHost: string,
  allowedHosts: readonly string[] = [],
): string | undefined {
  if (headers.origin !== undefined || headers["sec-fetch-site"] !== undefined)
    return "forbidden: a web browser's request (it carries an Origin header); the emulator answers API clients only";
  const host = headers.host;
  if (host === undefined) return undefined;
  const name = hostName(String(host));
  if (isIP(name) || name === "localhost" || name === listenHost.toLowerCase()) return undefined;
  if (allowedHosts.some((h) => h.toLowerCase() === name)) return undefined;
  return (
    `forbidden: Host '${name.slice(0, 100)}' is not this emulator's address; call it at localhost or an IP address, ` +
    "or allow the name with --allow-host (startEmulator's allowedHosts)"
  );
}

/** The host name of a `Host` header: lower case, without its port, an IPv6 address without its brackets. */
function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") >= 0 ? h.indexOf("]") : undefined);
  return h.replace(/:\d*$/, "").replace(/\.$/, "");
}

/** Whether a listen address reaches only this machine (the loopback interface). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === "::ffff:127.0.0.1";
}
