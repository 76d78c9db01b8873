/**
 * The emulator's `--data` file under SIGKILL: 1,000 writes through the client to the CLI, killed
 * with -9 at random (seeded) moments and restarted on the same file. The file always parses and
 * holds every write that was answered; a corrupted file stops the CLI with an error naming it,
 * never a silent empty start.
 */
import { spawn, type ChildProcessByStdio } from "child_process";
import type { Readable } from "stream";
import * as fs from "fs";
import * as path from "path";
import { CdnClient } from "../../provider/api/client";
import { writeFigures } from "./figures";
import { ROOT, tempDir } from "./helpers";

const CLI = path.join(ROOT, "provider/dist/emulator/cli.js");
const KEY = "persistence-test-key-0001";
const WRITES = 1000;
const IN_FLIGHT = 8;
const dir = tempDir("cdn-reliability-data-");
type Cli = ChildProcessByStdio<null, Readable, Readable>;
const live = new Set<Cli>();

afterAll(async () => {
  for (const c of live) c.kill("SIGKILL");
  await Promise.all(
    [...live].map(
      (c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.on("close", r))),
    ),
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

/** mulberry32, so the kill points are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Running {
  child: Cli;
  url: string;
  closed: Promise<{ code: number | null; signal: string | null; output: string }>;
}

/** Starts the CLI on `file`; resolves once it listens, rejects with its output when it exits first. */
function startCli(file: string): Promise<Running> {
  const child = spawn(process.execPath, [CLI, "--port", "0", "--data", file, "--api-key", KEY], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const closed = new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) =>
    child.on("close", (code, signal) => {
      live.delete(child);
      resolve({ code, signal, output });
    }),
  );
  return new Promise((resolve, reject) => {
    child.stdout.on("data", () => {
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) resolve({ child, url: m[1], closed });
    });
    closed.then((c) =>
      reject(Object.assign(new Error(`cli exited (${c.code ?? c.signal}) before listening: ${c.output}`), c)),
    );
  });
}

/** The zones a data file holds, by name; throws if it does not parse. */
function zonesInFile(file: string): Map<string, { label: string }> {
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as { zones: { name: string; label: string }[] };
  return new Map(data.zones.map((z) => [z.name, { label: z.label }]));
}

describe("--data under SIGKILL", () => {
  test(`${WRITES} writes, killed with -9 at random moments: the file always parses and keeps every answered write`, async () => {
    const file = path.join(dir, "cdn.json");
    const random = prng(20261121);
    /** Answered writes: zone name -> the label it was last answered with. */
    const answered = new Map<string, string>();
    /** Writes sent and not answered when the process died: name -> label they would set. */
    const pending = new Map<string, string>();
    const idByName = new Map<string, number>();
    let writes = 0;
    let kills = 0;
    let lostInFlight = 0;
    const problems: string[] = [];

    const verify = (when: string) => {
      let held: Map<string, { label: string }>;
      try {
        held = zonesInFile(file);
      } catch (e) {
        problems.push(`${when}: the file does not parse: ${(e as Error).message}`);
        return;
      }
      for (const [name, label] of answered) {
        const z = held.get(name);
        if (!z) problems.push(`${when}: answered create of ${name} missing`);
        else if (z.label !== label && z.label !== pending.get(name))
          problems.push(`${when}: ${name} has label '${z.label}', answered '${label}'`);
      }
    };

    while (writes < WRITES) {
      const cli = await startCli(file);
      const client = new CdnClient({ baseUrl: cli.url, apiUserId: 4242, apiKey: KEY, retries: 0, timeoutMs: 10_000 });
      const killAfter = writes + 60 + Math.floor(random() * 200);
      let dead = false;
      let killed: Promise<void> | undefined;
      const worker = async () => {
        while (!dead && writes < WRITES) {
          const n = writes++;
          // Four creates for each update of a zone created earlier (one write per zone in flight at a time).
          const names = [...answered.keys()].filter((x) => !pending.has(x));
          const update = n % 5 === 4 && names.length > 0;
          const name = update ? names[Math.floor(random() * names.length)] : `z${n}`;
          const label = `v${n}`;
          pending.set(name, label);
          try {
            if (update) await client.vodzone.update({ id: idByName.get(name)!, values: { label } });
            else
              idByName.set(
                name,
                (await client.vodzone.create({ values: { name, password: "Persist-Pa55", label } })).id,
              );
            answered.set(name, label);
            pending.delete(name);
          } catch {
            if (!dead) problems.push(`write ${n} (${name}) failed while the emulator was up`);
            lostInFlight++;
            return;
          }
          if (n >= killAfter && !killed) {
            // A random moment: a few ms later, while other writes are in flight.
            killed = new Promise((r) => setTimeout(r, Math.floor(random() * 15))).then(() => {
              dead = true;
              cli.child.kill("SIGKILL");
            });
          }
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      if (killed) {
        await killed;
        kills++;
      } else {
        cli.child.kill("SIGTERM");
      }
      client.close();
      const end = await cli.closed;
      if (killed) expect(end.signal).toBe("SIGKILL");
      verify(`after run ${kills}`);
      // Writes cut by the kill stay pending: they may or may not be in the file, both are right.
    }
    // One last start on the file: everything answered is served again.
    const cli = await startCli(file);
    const client = new CdnClient({ baseUrl: cli.url, apiUserId: 4242, apiKey: KEY, retries: 0 });
    const served = new Map((await client.vodzone.listZones()).map((z) => [z.name, z]));
    client.close();
    cli.child.kill("SIGTERM");
    await cli.closed;
    const missing = [...answered.keys()].filter((n) => !served.has(n));

    expect(problems).toEqual([]);
    expect(missing).toEqual([]);
    expect(kills).toBeGreaterThanOrEqual(3);
    expect(answered.size).toBeGreaterThan(WRITES * 0.7);
    writeFigures("persistence", {
      writes: WRITES,
      kills,
      answeredZones: answered.size,
      cutInFlight: lostInFlight,
      answeredMissing: missing.length + problems.length,
    });
  });
});

describe("a corrupted data file", () => {
  const cases: [string, string][] = [
    ["not JSON", "this is not json {"],
    ["JSON cut in the middle", '{"version":1,"nextZoneId":3,"zones":[{"id":1,"kind":"pullzone","na'],
    ["an empty file", ""],
    ["JSON of another shape", '{"version":1,"zones":"none"}'],
  ];
  test.each(cases)("%s: the CLI refuses to start and names the file", async (_what, content) => {
    const file = path.join(dir, `bad-${_what.replace(/\W+/g, "-")}.json`);
    fs.writeFileSync(file, content);
    const err = (await startCli(file).then(
      (c) => {
        c.child.kill("SIGKILL");
        return undefined;
      },
      (e: { code: number | null; output: string }) => e,
    ))!;
    expect(err).toBeDefined();
    expect(err.code).toBe(1);
    expect(err.output).toContain(`cannot use data file ${file}`);
    expect(err.output).not.toContain("listening on");
    expect(fs.readFileSync(file, "utf8")).toBe(content); // left as it was, for the person to look at
  });
});
