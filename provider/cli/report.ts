/**
 * The lines `cdn-zones import` prints on stderr besides progress: the `pulumi config set` commands.
 * Each server value in them is made printable (terminal.ts), so a zone name cannot draw a line of its own.
 */
import { kindInfo } from "../api/kinds";
import type { PasswordSetting } from "./program";
import { printable } from "./terminal";

/** The `pulumi config set --secret` command of each password, one line each, the zone named in a comment. */
export function passwordHints(passwords: readonly PasswordSetting[]): string[] {
  return passwords.map(
    (p) => `  pulumi config set --secret ${p.configKey}   # ${kindInfo(p.kind).label} '${printable(p.zoneName)}'`,
  );
}
