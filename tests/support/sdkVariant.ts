/**
 * Another `@pulumi/pulumi` for the dynamic-provider host of a real-engine test project, without installing
 * one: a node_modules folder whose entries link to the workspace's, except the SDK's `version.js` and the
 * host's entry `cmd/dynamic-provider/index.js`, which are copies (the version rewritten; for a host older
 * than 3.139, the configure call taken out of `getProvider`). The engine starts the host that the program's
 * folder resolves (`pulumi-resource-pulumi-nodejs`, started in the folder of the program's main file), so a
 * program in a folder linked to this one runs that host (`VariantProgram`); the program itself, the language
 * host and the package still load the workspace's modules (Node resolves the links to their real paths).
 */
import * as fs from "fs";
import * as path from "path";
import * as os from "os";
import { ZONES_PROGRAM } from "./engine";

const ROOT = path.resolve(__dirname, "../..");
const MODULES = path.join(ROOT, "node_modules");
const SDK = path.join(MODULES, "@pulumi/pulumi");

/** What the variant host does differently from the workspace's. */
export interface SdkVariant {
  /** The version the SDK reports (`require("@pulumi/pulumi/version")` beside the host). */
  version: string;
  /** False: the host never calls the provider's `configure`, as hosts before 3.139 (pulumi/pulumi #17697). */
  callsConfigure: boolean;
}

/** Makes `dst` a folder of links to every entry of `src` but `except`. */
function linkAllBut(src: string, dst: string, except: string[]): void {
  fs.mkdirSync(dst, { recursive: true });
  for (const e of fs.readdirSync(src)) if (!except.includes(e)) fs.symlinkSync(path.join(src, e), path.join(dst, e));
}

/** Builds the node_modules folder of `variant` under `dir` and returns its path. */
export function sdkVariant(dir: string, variant: SdkVariant): string {
  const out = path.join(dir, `node_modules-${variant.version}${variant.callsConfigure ? "" : "-no-configure"}`);
  if (fs.existsSync(out)) return out;
  const sdk = path.join(out, "@pulumi/pulumi");
  const host = path.join(sdk, "cmd/dynamic-provider");
  linkAllBut(MODULES, out, ["@pulumi"]);
  linkAllBut(path.join(MODULES, "@pulumi"), path.join(out, "@pulumi"), ["pulumi"]);
  linkAllBut(SDK, sdk, ["cmd", "version.js"]);
  linkAllBut(path.join(SDK, "cmd"), path.join(sdk, "cmd"), ["dynamic-provider"]);
  linkAllBut(path.join(SDK, "cmd/dynamic-provider"), host, ["index.js"]);
  const version = fs.readFileSync(path.join(SDK, "version.js"), "utf8");
  fs.writeFileSync(
    path.join(sdk, "version.js"),
    version.replace(/exports\.version = "[^"]*"/, `exports.version = "${variant.version}"`),
  );
  let entry = fs.readFileSync(path.join(SDK, "cmd/dynamic-provider/index.js"), "utf8");
  if (!variant.callsConfigure) {
    const call = "if (provider.configure) {";
    if (!entry.includes(call)) throw new Error(`the host's getProvider changed: '${call}' not found`);
    entry = entry.replace(call, "if (false) { // before 3.139: no configure");
  }
  fs.writeFileSync(path.join(host, "index.js"), entry);
  return out;
}

/**
 * A folder of its own for the zones fixture program (a copy), whose node_modules link can be switched
 * between the workspace's and a variant's: the engine runs plugins, the dynamic-provider host included,
 * in the folder of the program's main file, so that folder decides which host runs. Pass `program` to
 * `EngineProject.create({ program })`.
 */
export class VariantProgram {
  private constructor(readonly dir: string) {}

  static create(): VariantProgram {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-variant-"));
    fs.copyFileSync(ZONES_PROGRAM, path.join(dir, "program.js"));
    fs.symlinkSync(MODULES, path.join(dir, "node_modules"), "dir");
    return new VariantProgram(dir);
  }

  /** The program's path, for the `program` option of `EngineProject.create`. */
  get program(): string {
    return path.join(this.dir, "program.js");
  }

  /** From now on the program's host is `variant`'s (the workspace's when omitted). */
  useSdk(variant?: SdkVariant): void {
    const modules = variant ? sdkVariant(this.dir, variant) : MODULES;
    const link = path.join(this.dir, "node_modules");
    fs.unlinkSync(link);
    fs.symlinkSync(modules, link, "dir");
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
