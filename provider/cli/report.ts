/** The lines `cdn-zones import` prints on stderr besides progress; every server value in them made printable. */
import { kindInfo } from "../api/kinds";
import type { PasswordSetting, SkippedZone } from "./program";
import { preview, printable } from "../api/terminalText";

/** Why zones are skipped, for the summary; each skipped line gives the check's own reason. */
export const SKIP_REASON =
  "the resources' check refuses their names (a zone name is 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen)";

/** `skipped pull zone id 7 named "a\u000ab": its name ...`: one zone left out, with the check's reason. */
export function skippedLine(z: SkippedZone): string {
  const id = typeof z.id === "number" ? String(z.id) : preview(String(z.id), 20);
  const name = z.name === undefined || z.name === null ? "with no name" : `named ${preview(String(z.name))}`;
  return `skipped ${kindInfo(z.kind).label} id ${id} ${name}: its name ${printable(z.reason)}`;
}

/** `12 zones written to zones.ts; 2 skipped: ...`. */
export function summaryLine(written: number, skipped: number, where: string): string {
  return `${written} zones written to ${printable(where)}${skipped ? `; ${skipped} skipped: ${SKIP_REASON}` : ""}`;
}

/** The `pulumi config set --secret` command of each password, one line each, the zone named in a comment. */
export function passwordHints(passwords: readonly PasswordSetting[]): string[] {
  return passwords.map(
    (p) => `  pulumi config set --secret ${p.configKey}   # ${kindInfo(p.kind).label} '${printable(p.zoneName)}'`,
  );
}

/** Why the import prints the cdn:companyAlias / cdn:cdnDomain commands, then the commands. */
export function deliveryConfigLines(config: { commands: string[]; known: boolean }): string[] {
  if (!config.commands.length) return [];
  return [
    "",
    "cdnUrl: the API returns a zone's delivery host name only when it creates the zone, so an adopted zone's cdnUrl",
    "is built as <name>.<company alias>.<CDN domain> from the stack's config. Set both before `pulumi up`, or the",
    "adopted pull and push zones have an empty cdnUrl" +
      (config.known
        ? " (the values below are CDN_COMPANY_ALIAS and CDN_CDN_DOMAIN):"
        : " (the control panel's account page shows both; a zone's delivery host name <zone>.<alias>.<domain> shows them too):"),
    ...config.commands.map((c) => `  ${printable(c)}`),
  ];
}
