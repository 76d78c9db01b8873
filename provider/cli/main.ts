#!/usr/bin/env node
/**
 * `cdn-zones`: `import` (docs/migration.md), `settle`, `coverage` and `summary`. The API key is never printed. The
 * provider plugin's executable runs it too (bin/pulumi-resource-cdn), for every language.
 */
import * as fs from "fs";
import * as path from "path";
import { CliCommand, parseCommand, USAGE, UsageError } from "./args";
import { CdnConfigError } from "../api/errors";
import { importZones } from "./import";
import { deliveryConfigLines, passwordHints, skippedLine, summaryLine } from "./report";
import { coverageCommand } from "./coverage";
import { settleStack } from "./settle";
import { readStackConfig, runPulumi } from "./stackConfig";
import { readStacks } from "./state";
import { summarize } from "./summary";
import { printable } from "../api/terminalText";

async function main(argv: readonly string[]): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCommand(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`cdn-zones: ${printable(e.message)}\n\n${USAGE}`);
    return 2;
  }
  if (command.kind === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  // Every line is made printable: progress carries server text (error messages, names).
  const progress = (line: string) => process.stderr.write(`cdn-zones: ${printable(line)}\n`);
  if (command.kind === "settle") return settleStack(command.stack, progress).then(() => 0);
  if (command.kind === "coverage") return coverageCommand(command, (t) => process.stdout.write(t));
  if (command.kind === "summary") {
    const text = fs.readFileSync(command.file ?? 0, "utf8");
    // A preview that failed before its result (a backend or a login refused) printed no JSON: the comment says so.
    const digest = /^\s*\{/.test(text)
      ? JSON.parse(text)
      : {
          diagnostics: [{ severity: "error", message: "`pulumi preview --json` printed no result: see the job's log" }],
        };
    process.stdout.write(summarize(digest, command.title));
    return 0;
  }
  const stack = readStackConfig({ stack: command.options.stack });
  if (stack.note) progress(stack.note);
  if (stack.problem && command.options.stack) throw new Error(stack.problem);
  if (stack.problem) progress(stack.problem);
  // In a project, every stack of its backend: the zones they manage are not written (issue 43).
  try {
    if (stack.note) command.options.stacks = readStacks(runPulumi, process.env);
  } catch (e) {
    progress(
      `the backend's stacks were not read (${(e as Error).message}): zones other stacks manage are not left out`,
    );
  }
  const result = await importZones(command.options, progress, process.env, stack.lookup).catch((e: unknown) => {
    // A missing setting the stack would have given: say why the stack's config was not read.
    if (e instanceof CdnConfigError && stack.problem) e.message += ` (${stack.problem})`;
    throw e;
  });
  for (const z of result.skipped) progress(skippedLine(z));
  const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
  if (command.options.out) {
    fs.mkdirSync(path.dirname(path.resolve(command.options.out)), { recursive: true });
    fs.writeFileSync(command.options.out, result.text);
  } else process.stdout.write(result.text);
  progress(summaryLine(total, result.skipped.length, command.options.out ?? "stdout"));
  if (result.passwords.length) {
    process.stderr.write(
      `\nPasswords cannot be read from the API. Set each zone's password in the stack's config before \`pulumi up\`\n` +
        `(adopting sets the zone's password to this value: give the current one to keep it). Each command prompts for the value:\n`,
    );
    for (const line of passwordHints(result.passwords)) process.stderr.write(`${line}\n`);
  }
  for (const line of deliveryConfigLines(result.deliveryConfig)) process.stderr.write(`${line}\n`);
  return 0;
}

/** Runs the command `argv` (without node and the script); its exit code becomes the process's. */
export function run(argv: readonly string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (e: Error) => {
      process.stderr.write(`cdn-zones: ${printable(e.message)}\n`);
      process.exitCode = 1;
    },
  );
}

if (require.main === module) void run(process.argv.slice(2));
