/**
 * `cdn-zones` command line, read with `util.parseArgs`. The API key is taken only from
 * `CDN_API_KEY` or `--api-key-file`: a flag would leave it in the shell history and the process list.
 */
import * as fs from "fs";
import { parseArgs } from "util";
import type { CredentialName } from "../api/config";
import { isZoneKind, ZONE_KINDS, type ZoneKind } from "../api/kinds";
import { LANGUAGES, type Language } from "./program";
import type { BackendStack } from "./state";

export const USAGE = `Usage: cdn-zones import [options]
       cdn-zones settle [--stack NAME]
       cdn-zones coverage [--stack NAME] [--json] [--preview FILE]
       cdn-zones summary [--title TEXT] [FILE]

import: writes a Pulumi program (TypeScript, YAML or Python) declaring every zone of the account with
\`adopt: true\`, so \`pulumi up\` takes the zones over instead of creating new ones. See docs/migration.md.

Connection: the flags, else the environment, else (run in a Pulumi project) the stack's cdn:* config,
read with \`pulumi config --json --show-secrets\`:
  --base-url URL          API base URL (CDN_BASE_URL, cdn:baseUrl)
  --api-user-id ID        API user id (CDN_API_USER_ID, cdn:apiUserId)
  --api-key-file FILE     file holding the API key (else CDN_API_KEY, cdn:apiKey); never printed
  --stack NAME            the stack whose config to read (default: the selected stack)

Options:
  --kinds LIST            zone kinds to import, comma-separated: pull,push,vod,live (default: all)
  --exclude-state FILE    leave out zones this stack state already manages (\`pulumi stack export\`
                          output); repeatable
  --out FILE              write the program to FILE instead of stdout
  --language LANG         typescript (default; the package's classes), yaml (a Pulumi.yaml) or
                          python (__main__.py): the provider plugin's cdn:index types, docs/languages/
  -h, --help              this text

Progress and the \`pulumi config set --secret\` commands for the zones' passwords go to stderr.

settle: after an interrupted \`pulumi up\`, records in the stack's state the zones its pending creates made,
and drops the pending creates that made nothing (docs/resources.md, "Interrupted deployments"); keeps the stack's
record of the zones it held and retired (a stack tag a destroy keeps), and after a destroy makes the stack instance
again, so the next \`up\` takes its zones back. Connection: the stack's cdn:* config, then the environment. Run it
before and after \`pulumi up\`, and before one after a destroy; with nothing pending it asks no API.

coverage: every zone of the account with its owner, from every stack of the backend (\`pulumi stack ls --all\`):
one stack, several (a conflict), retired by a stack, or none; and stacks' records of zones that are gone. Markdown,
or --json. Exit 0: every zone has one owner; else the sum of 4 (a zone several stacks manage), 8 (a zone no stack
manages or retired) and 16 (a stale record); 1: it could not run. With --preview FILE (\`pulumi preview --json\` of
the stack): exit 4 when that preview creates or adopts a zone another stack manages, naming it.

summary: a pull request comment (markdown, under 65,536 characters) from \`pulumi preview --json --show-sames\`
output, read from FILE or stdin (without --show-sames the CLI leaves unchanged zones out, and so does the count).
`;

/** Whether `word` is a command of `cdn-zones` (or its help): the plugin's executable runs it instead of serving. */
export const isCommand = (word: string | undefined): boolean =>
  word === "-h" || word === "--help" || COMMANDS.has(word ?? "");

/** A usage error: printed with the usage text, exit status 2. */
export class UsageError extends Error {}

export interface ImportOptions extends Partial<Record<CredentialName, string>> {
  kinds: ZoneKind[];
  excludeState: string[];
  out?: string;
  language?: Language;
  /** The stack whose `cdn:*` config is read; default the project's selected stack. */
  stack?: string;
  /** The backend's stacks (cli/state.ts): zones they manage are left out, and those they retired are said. */
  stacks?: BackendStack[];
}

export type CliCommand =
  | { kind: "help" }
  | { kind: "import"; options: ImportOptions }
  | { kind: "settle"; stack?: string }
  | { kind: "coverage"; stack?: string; json: boolean; preview?: string }
  | { kind: "summary"; title: string; file?: string };

/** Each command: how many arguments it takes, and its flags besides --help (each takes text; --exclude-state repeats). */
const COMMANDS = new Map<string, [number, string[]]>([
  ["import", [0, ["base-url", "api-user-id", "api-key-file", "kinds", "exclude-state", "out", "language", "stack"]]],
  ["settle", [0, ["stack"]]],
  ["coverage", [0, ["stack", "preview", "json"]]],
  ["summary", [1, ["title"]]],
]);

/** The kinds of `--kinds`, each checked; order and repeats do not matter. */
function parseKinds(text: string): ZoneKind[] {
  const kinds = text.split(",").flatMap((k) => k.trim().toLowerCase() || []);
  const bad = kinds.filter((k) => !isZoneKind(k));
  if (bad.length || !kinds.length)
    throw new UsageError(
      `--kinds: ${bad.length ? `unknown kind ${bad.map((k) => `'${k}'`).join(", ")}` : "empty"}; use ${ZONE_KINDS.join(",")}`,
    );
  return ZONE_KINDS.filter((k) => kinds.includes(k));
}

/** The API key from `--api-key-file`: its first line, trimmed; errors never quote the file's content. */
function readKeyFile(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(
      `--api-key-file ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "cannot be read"}`,
    );
  }
  const key = text.split(/\r?\n/)[0].trim();
  if (!key) throw new UsageError(`--api-key-file ${file}: the first line is empty`);
  return key;
}

/** Parses `argv` (without node and the script). */
export function parseCommand(argv: readonly string[]): CliCommand {
  if (argv.some((a) => a === "--api-key" || a.startsWith("--api-key=")))
    throw new UsageError(
      "--api-key is not accepted (it would show in the shell history and process list): set CDN_API_KEY or use --api-key-file FILE",
    );
  let parsed;
  try {
    const text = [...COMMANDS.values()].flatMap(([, flags]) => flags.map((f) => [f, { type: "string" as const }]));
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        ...Object.fromEntries(text),
        "exclude-state": { type: "string", multiple: true },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const values = parsed.values as Record<string, string | undefined> & { "exclude-state"?: string[]; json?: boolean };
  if (values.help) return { kind: "help" };
  const [command, ...rest] = parsed.positionals;
  const [args, flags] = COMMANDS.get(command) ?? [0];
  if (!flags) throw new UsageError(command ? `unknown command '${command}'` : "a command is needed");
  if (rest.length > args) throw new UsageError(`unexpected argument '${rest[args]}'`);
  const stray = Object.keys(values).find((k) => values[k] !== undefined && !flags.includes(k));
  if (stray) throw new UsageError(`--${stray} is not an option of ${command}`);
  if (command === "settle") return { kind: "settle", stack: values.stack };
  if (command === "coverage")
    return { kind: "coverage", stack: values.stack, json: values.json === true, preview: values.preview };
  if (command === "summary") return { kind: "summary", title: values.title ?? "Pulumi preview", file: rest[0] };
  const language = (values.language ?? "typescript").toLowerCase() as Language;
  if (!LANGUAGES.includes(language))
    throw new UsageError(`--language: unknown language '${values.language}'; use ${LANGUAGES.join(", ")}`);
  return {
    kind: "import",
    options: {
      baseUrl: values["base-url"],
      apiUserId: values["api-user-id"],
      apiKey: values["api-key-file"] !== undefined ? readKeyFile(values["api-key-file"]) : undefined,
      kinds: values.kinds !== undefined ? parseKinds(values.kinds) : [...ZONE_KINDS],
      excludeState: values["exclude-state"] ?? [],
      out: values.out,
      language,
      stack: values.stack,
    },
  };
}
