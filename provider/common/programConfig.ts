/**
 * The stack's configuration as a program reads it (`new pulumi.Config(namespace)`), for the parts
 * of the package that run in the program rather than in the dynamic-provider host: the functions
 * and the CachePurge resource class. The host reads it from `configure` instead
 * (resources/host/connection.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigLookup, resolveSettings } from "../api/config";
import { SETTING_NAMES, SETTINGS, type SettingValues } from "../api/settings";

/**
 * Reads a namespaced key (`cdn:apiKey`) from the stack's config. `Config.get` returns the plain
 * value of a secret too; it is only handed to the client, which keeps it off every message.
 */
export const programConfig: ConfigLookup = (key) => {
  const [namespace, name] = key.split(":");
  try {
    const v = new pulumi.Config(namespace).get(name);
    return v === "" ? undefined : v;
  } catch {
    return undefined; // outside a Pulumi program there is no config
  }
};

/** A company setting from the stack's config, else the environment, parsed by the settings table (which names a bad one). */
export function programSetting<N extends "companyId" | "companyAlias">(name: N): SettingValues[N] | undefined {
  return resolveSettings([name], { config: programConfig, env: process.env })[name];
}

/**
 * The secret settings (`cdn:apiKey`) the stack's configuration holds without `--secret`. The engine
 * records the whole stack configuration as the inputs of the default `pulumi-nodejs` provider, the one
 * every dynamic resource registers with (pkg/resource/deploy/target.go, default_providers.go): a plain
 * key would be stored in clear in the state as soon as a zone registers. The CLI's language host lists
 * the secret keys in PULUMI_CONFIG_SECRET_KEYS; without that list (mocks, an inline Automation API
 * program) nothing tells a plain value from a secret one, and nothing is reported.
 */
export function plainSecretSettings(env: NodeJS.ProcessEnv = process.env): string[] {
  let secretKeys: unknown;
  try {
    secretKeys = JSON.parse(env.PULUMI_CONFIG_SECRET_KEYS ?? "");
  } catch {
    return [];
  }
  if (!Array.isArray(secretKeys)) return [];
  return SETTING_NAMES.map((n) => SETTINGS[n])
    .filter((s) => s.secret && programConfig(s.configKey) !== undefined && !secretKeys.includes(s.configKey))
    .map((s) => s.configKey);
}

/**
 * Stops the program before a resource of the package registers when a secret setting is in plain text
 * (see {@link plainSecretSettings}): no step runs, so no state is written with the key. The message
 * names the command that encrypts it and never shows the value.
 */
export function refusePlainSecrets(): void {
  const plain = plainSecretSettings();
  if (!plain.length) return;
  const stack = currentStack();
  const commands = plain.map(
    (key) => `pulumi config set --secret ${key} <your ${key === "cdn:apiKey" ? "API key" : "value"}>${stack}`,
  );
  throw new pulumi.RunError(
    `${plain.join(", ")} is set without --secret in this stack's configuration: Pulumi would store it in clear ` +
      `in the state, as an input of the default provider of dynamic resources. Encrypt it, then run this again: ` +
      commands.join("; "),
  );
}

function currentStack(): string {
  try {
    return ` --stack ${pulumi.getStack()}`;
  } catch {
    return "";
  }
}
