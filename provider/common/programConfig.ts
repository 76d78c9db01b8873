/**
 * The program's source of settings, for the parts of the package that run in the program rather than in the
 * dynamic-provider host (the functions, CachePurge): the stack's config as `pulumi.Config("cdn")` reads it,
 * then the environment (api/config.ts). The host reads the config from `configure` (resources/host/connection.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { plainSecretRefusal, SETTINGS, SETTING_NAMES, type SettingInputs } from "../api/config";

/** `cdn:<key>` of the stack's config. `Config.get` returns a secret's plain value too: only the client sees it. */
function programConfig(key: string): string | undefined {
  try {
    return new pulumi.Config("cdn").get(key.replace(/^cdn:/, ""));
  } catch {
    return undefined; // outside a Pulumi program there is no config
  }
}

/** The secret settings (`apiKey`): refused in plain text, marked secret in the plugin's configuration (plugin/sdkGaps.ts). */
export const SECRET_SETTINGS = SETTING_NAMES.filter((n) => SETTINGS[n].secret);

/** Where the program reads settings: the stack's config, then the environment. */
export const programSources = (): SettingInputs => ({ config: programConfig, env: process.env });

/**
 * The secret settings (`cdn:apiKey`) the stack's configuration holds without `--secret`. The engine records the
 * whole stack configuration as the inputs of the default `pulumi-nodejs` provider, the one every dynamic resource
 * registers with (pkg/resource/deploy/target.go, default_providers.go): a plain key would be stored in clear in the
 * state as soon as a zone registers. The CLI's language host lists the secret keys in PULUMI_CONFIG_SECRET_KEYS;
 * without that list (mocks, an inline Automation API program) nothing tells a plain value from a secret one.
 */
export function plainSecretSettings(env: NodeJS.ProcessEnv = process.env): string[] {
  let secretKeys: unknown;
  try {
    secretKeys = JSON.parse(env.PULUMI_CONFIG_SECRET_KEYS ?? "");
  } catch {
    return [];
  }
  if (!Array.isArray(secretKeys)) return [];
  return SECRET_SETTINGS.map((n) => SETTINGS[n].configKey).filter((k) => programConfig(k) && !secretKeys.includes(k));
}

/**
 * Stops the program before a resource of the package registers when a secret setting is in plain text (see
 * {@link plainSecretSettings}): no step runs, so no state is written with the key. The message names the command
 * that encrypts it and never shows the value.
 */
export function refusePlainSecrets(): void {
  const plain = plainSecretSettings();
  if (!plain.length) return;
  let stack = "";
  try {
    stack = ` --stack ${pulumi.getStack()}`;
  } catch {
    // outside a Pulumi program: the command without --stack
  }
  throw new pulumi.RunError(
    plainSecretRefusal(plain, "in the state, as an input of the default provider of dynamic resources", stack),
  );
}
