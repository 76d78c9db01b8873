/**
 * `cdn-zones drift`: the zones of the account the stack's state does not hold (made in the control panel, or left in
 * the account by a removal), one line each, exit 7 when there are any. It replaces examples/gitops's `drift.ts`, a
 * TypeScript program's transformation, so every language's drift check runs the same command beside
 * `pulumi preview --refresh --expect-no-changes` (examples/gitops/README.md).
 */
import { CdnClient } from "../api/client";
import { resolveCredentials } from "../api/config";
import { CdnAuthError } from "../api/errors";
import { kindInfo, ZONE_KINDS } from "../api/kinds";
import { printable } from "../api/terminalText";
import { specOf } from "../resources/specs";
import { readStackConfig, runPulumi, stackExport, type PulumiRunner } from "./stackConfig";
import { isManaged, managedIn, noManagedZones, type Resource } from "./state";

/** Exit code of a drift found: `pulumi preview --expect-no-changes`'s own. */
export const DRIFT = 7;

/** Lists the account's zones against the stack's (`stack`, default the selected one); 0 none by hand, 7 some. */
export async function zonesMadeByHand(
  stack: string | undefined,
  progress: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  run: PulumiRunner = runPulumi,
): Promise<number> {
  const state = stackExport<{ resources?: Resource[] }>(run, stack, env).deployment;
  const held = managedIn(state?.resources ?? [], noManagedZones(), "the stack's state");
  // The settings the deployment's host uses: the stack's config, then the environment.
  const client = new CdnClient(resolveCredentials({ config: readStackConfig({ stack, env, run }).lookup, env }));
  const found: string[] = [];
  try {
    for (const kind of ZONE_KINDS) {
      const spec = specOf(kind);
      const rows = await client[spec.group].listZones().catch((e: unknown) => {
        // Live zones are granted per key (§4.5): a key without them has none to find.
        if (kindInfo(kind).liveOnly && e instanceof CdnAuthError && e.notGranted) return undefined;
        throw new Error(`listing ${spec.label}s failed: ${(e as Error).message}`);
      });
      if (!rows) progress(`${spec.label}s not checked: this API key is not granted them`);
      for (const row of (rows ?? []) as unknown as { id: unknown; name?: unknown }[])
        if (!isManaged(held, kind, Number(row.id)))
          found.push(`${spec.label} '${printable(String(row.name ?? "?"))}' (id ${printable(String(row.id))})`);
    }
  } finally {
    client.close();
  }
  for (const z of found) process.stdout.write(`made by hand: ${z}\n`);
  progress(
    found.length
      ? `${found.length} zone${found.length === 1 ? "" : "s"} of the account ${found.length === 1 ? "is" : "are"} not in the stack's state: adopt each (a resource of its name with \`adopt: true\`) or delete it in the control panel`
      : "every zone of the account is in the stack's state",
  );
  return found.length ? DRIFT : 0;
}
