/**
 * The stack's configuration as a program reads it (`new pulumi.Config(namespace)`), for the parts
 * of the package that run in the program rather than in the dynamic-provider host: the functions
 * and the CachePurge resource class. The host reads it from `configure` instead
 * (resources/connection.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigLookup, resolveSettings } from "../api/config";
import type { SettingValues } from "../api/settings";

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
  return resolveSettings([name], { config: programConfig, env: process.env })[name] as SettingValues[N] | undefined;
}
