/**
 * Pulumi YAML's own template loader, for reading a generated Pulumi.yaml back as pulumi-language-yaml reads it: the Go
 * command in tests/support/yaml-template (pulumi-yaml v1.25.0, the version of the YAML host the tests run), built once
 * with `go build` into the cache beside the CLI's (scripts/pulumi-cli.js), keyed by its sources. The first build takes
 * a few minutes on a busy 2-core machine; later ones find it.
 */
import { execFileSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";

const { cacheRoot } = require("../../scripts/pulumi-cli.js") as { cacheRoot(): string };
const SOURCE = path.join(__dirname, "yaml-template");

/** A property or output as the loader reads it: a plain string, an interpolation's parts, or another expression. */
export interface YamlValue {
  string?: string;
  parts?: { text: string; access?: string }[];
  other?: string;
}
export interface LoadedTemplate {
  errors: string[];
  resources: { name: string; type: string; properties: Record<string, YamlValue> }[];
  outputs: Record<string, YamlValue>;
}

/** The checker's path, built when missing. */
export function yamlTemplateBinary(): string {
  const hash = createHash("sha256");
  for (const f of ["main.go", "go.mod", "go.sum"]) hash.update(fs.readFileSync(path.join(SOURCE, f)));
  const dir = path.join(cacheRoot(), `yaml-template-${hash.digest("hex").slice(0, 12)}`);
  const bin = path.join(dir, "yaml-template");
  if (fs.existsSync(bin)) return bin;
  const staging = `${dir}.${process.pid}`;
  execFileSync("go", ["build", "-trimpath", "-o", path.join(staging, "yaml-template"), "."], {
    cwd: SOURCE,
    stdio: "pipe",
    env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" },
  });
  // Another test process may have built it meanwhile: its copy is the same.
  if (fs.existsSync(dir)) fs.rmSync(staging, { recursive: true, force: true });
  else fs.renameSync(staging, dir);
  return bin;
}

/** `text` loaded as a Pulumi.yaml by pulumi-yaml's LoadYAMLBytes. */
export function loadYamlTemplate(text: string): LoadedTemplate {
  return JSON.parse(execFileSync(yamlTemplateBinary(), { input: text, encoding: "utf8" })) as LoadedTemplate;
}
