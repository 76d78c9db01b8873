/**
 * Opt-in type check of a TypeScript program (`typecheck: true`). The runner compiles `.ts` files with
 * `transpileModule`, which only strips types, while the Pulumi CLI type-checks through ts-node by default
 * (unless `PULUMI_NODEJS_TRANSPILE_ONLY=true` or `noCheck`): without this, a program with type errors runs here
 * and fails with the CLI.
 */
import * as path from "path";
import { loadTypeScript } from "./typescript";

/** The part of the `typescript` module used here. */
interface TypeScriptLike {
  findConfigFile(dir: string, exists: (f: string) => boolean): string | undefined;
  readConfigFile(file: string, read: (f: string) => string | undefined): { config?: unknown; error?: unknown };
  parseJsonConfigFileContent(json: unknown, host: unknown, dir: string): { options: Record<string, unknown> };
  createProgram(files: string[], options: Record<string, unknown>): unknown;
  getPreEmitDiagnostics(program: unknown): Array<{ category: number }>;
  formatDiagnostics(
    diags: unknown[],
    host: { getCanonicalFileName(f: string): string; getCurrentDirectory(): string; getNewLine(): string },
  ): string;
  sys: { fileExists(f: string): boolean; readFile(f: string): string | undefined };
  DiagnosticCategory: { Error: number };
}

/**
 * Type-checks `program` with the nearest tsconfig.json above it (else strict defaults) and the `typescript`
 * of the project. Returns the formatted errors, empty when there are none.
 */
export function typeErrors(program: string, projectDir: string): string[] {
  if (!/\.(ts|tsx|mts|cts)$/.test(program)) return [];
  const ts = loadTypeScript<TypeScriptLike>(projectDir, `type-check ${program} (typecheck: true)`);
  const configFile = ts.findConfigFile(path.dirname(program), ts.sys.fileExists);
  // Without a tsconfig.json: the settings of the runner's transpilation, strict, and only the ES2020 library.
  let options: Record<string, unknown> = {
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    target: 7 /* ES2020 */,
    lib: ["lib.es2020.d.ts"],
    module: 1 /* CommonJS */,
  };
  if (configFile) {
    const read = ts.readConfigFile(configFile, ts.sys.readFile);
    options = ts.parseJsonConfigFileContent(read.config ?? {}, ts.sys, path.dirname(configFile)).options;
  }
  const prog = ts.createProgram([program], { ...options, noEmit: true });
  const errors = ts.getPreEmitDiagnostics(prog).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length === 0) return [];
  const host = {
    getCanonicalFileName: (f: string) => f,
    getCurrentDirectory: () => projectDir,
    getNewLine: () => "\n",
  };
  return ts
    .formatDiagnostics(errors, host)
    .split("\n")
    .filter((l) => l.trim() !== "");
}
