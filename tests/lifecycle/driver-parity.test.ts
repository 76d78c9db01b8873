/**
 * Engine rules the driver missed until tests/engine/driver-vs-cli.test.ts compared it with the real `pulumi`
 * CLI, proven in process against a fake host (no child processes). Each names the engine code it follows
 * (docs/engine-fidelity.md).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { RegisterResourceRequest } from "@pulumi/pulumi/proto/resource_pb";
import { readState } from "../../provider/testing";
import { DEFAULT_PARALLEL, defaultParallel } from "../../provider/testing/driver";
import { registrationOf } from "../../provider/testing/program";
import { deploy, FakeHost, getReg, operation, reg, urn } from "../fixtures/driver/fake-host";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "driver-parity-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const stateFile = (): string => path.join(dir, `state-${++n}.json`);
const names = (file: string) => readState(file, "pw").resources.map((r) => r.name);

describe("the default parallelism (defaultParallel, pkg/cmd/pulumi/operations/up.go)", () => {
  it("is PULUMI_PARALLEL when it is a positive integer, else 4 per available core", () => {
    expect(DEFAULT_PARALLEL).toBe(4 * os.availableParallelism());
    expect(defaultParallel({})).toBe(DEFAULT_PARALLEL);
    expect(defaultParallel({ PULUMI_PARALLEL: "3" })).toBe(3);
    for (const v of ["0", "-2", "abc", "2.5", ""])
      expect(defaultParallel({ PULUMI_PARALLEL: v })).toBe(DEFAULT_PARALLEL);
  });
});

describe("a delete-before-replace whose delete fails", () => {
  it("fails one step, the delete's, and keeps the old resource", async () => {
    const host = new FakeHost();
    host.replaceKeys = ["zone"];
    host.deleteBeforeReplace = true;
    const file = stateFile();
    await deploy(host, file, [reg("a", { zone: "eu" })]);
    host.on.delete = async () => {
      throw new Error("HTTP 500");
    };
    const op = operation(host, file);
    // The program gets the error reported, so the runner takes it for a repeat and reports nothing more.
    const failed = op.engine.register(reg("a", { zone: "us" }));
    await expect(failed).rejects.toThrow(/delete failed: HTTP 500/);
    expect(op.heard.errors).toEqual([((await failed.catch((e: Error) => e)) as Error).message]);
    expect(op.heard.steps.map((s) => `${s.name} ${s.op}`)).toEqual(["a failed"]);
    op.store.flush();
    expect(readState(file, "pw").resources).toMatchObject([{ name: "a", inputs: { zone: "eu" } }]);
  });
});

describe("Resource.get of a URN that holds a managed resource (GenerateReadSteps)", () => {
  it("under another id: read-replacement, and the managed resource is deleted at the end", async () => {
    const host = new FakeHost();
    const file = stateFile();
    host.records.set("ext-1", { size: 9 });
    await deploy(host, file, [reg("a", { size: 1 })]);
    const managed = readState(file, "pw").resources[0].id;
    host.calls.length = 0;
    const r = await deploy(host, file, [getReg("a", "ext-1")]);
    expect(r.heard.steps.map((s) => `${s.name} ${s.op}`)).toEqual(["a read-replacement", "a replace"]);
    expect(host.log()).toEqual(["read:a", "delete:a"]);
    expect(host.calls[1].id).toBe(managed);
    expect(readState(file, "pw").resources).toMatchObject([{ name: "a", id: "ext-1", external: true }]);
  });

  it("under its own id: only released from management, not deleted", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    const id = readState(file, "pw").resources[0].id;
    host.calls.length = 0;
    const r = await deploy(host, file, [getReg("a", id)]);
    expect(r.heard.steps.map((s) => `${s.name} ${s.op}`)).toEqual(["a read"]);
    expect(host.log()).toEqual(["read:a"]);
    expect(host.records.has(id)).toBe(true);
  });
});

describe("deletedWith (DeleteStep.Apply)", () => {
  it("skips the provider's delete when the resource it names is deleted too, not otherwise", async () => {
    const host = new FakeHost();
    const file = stateFile();
    const regs = [reg("owner", { size: 1 }), reg("rider", { size: 2 }, { deletedWith: urn("owner") })];
    await deploy(host, file, regs);
    // The rider alone removed: its owner stays, so it is deleted.
    host.calls.length = 0;
    await deploy(host, file, [regs[0]]);
    expect(host.log()).toEqual(["check:owner", "diff:owner", "delete:rider"]);

    await deploy(host, file, regs);
    host.calls.length = 0;
    const d = operation(host, file);
    await d.engine.destroy();
    d.store.flush();
    expect(d.heard.steps.map((s) => `${s.name} ${s.op}`)).toEqual(["rider delete", "owner delete"]);
    expect(host.log()).toEqual(["delete:owner"]);
    expect(names(file)).toEqual([]);
  });
});

describe("continueOnError (--continue-on-error)", () => {
  it("answers a failed step FAIL and its dependents SKIP, and still runs the deletes no failure blocks", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("one", { n: 1 }), reg("two", { n: 2 })]);
    host.on.create = async () => {
      throw new Error("HTTP 500");
    };
    host.calls.length = 0;
    const op = operation(host, file, { continueOnError: true });
    const results: unknown[] = [];
    await op.engine.up(
      async () => {
        for (const r of [
          reg("one", { n: 1 }),
          reg("three", { n: 3 }),
          reg("four", { n: 4 }, {}, { dependencies: [urn("three")] }),
        ])
          results.push(await op.engine.register(r));
        return false;
      },
      { refresh: false },
    );
    op.store.flush();
    expect(results).toMatchObject([{ id: expect.any(String) }, { result: "fail" }, { result: "skip" }]);
    expect(op.heard.steps.map((s) => `${s.name} ${s.op}`)).toEqual(["one same", "three failed", "two delete"]);
    expect(host.log().filter((c) => !c.startsWith("check") && !c.startsWith("diff"))).toEqual([
      "create:three",
      "delete:two",
    ]);
    expect(op.heard.warnings).toContain("1 resource(s) not deployed: a resource they depend on failed");
    expect(names(file)).toEqual(["one"]);
  });
});

describe("options inherited from the parent (inheritFromParent, source_eval.go)", () => {
  const job = { stack: "dev", project: "proj" } as Parameters<typeof registrationOf>[0];
  const request = (set: (r: RegisterResourceRequest) => void): RegisterResourceRequest => {
    const r = new RegisterResourceRequest();
    r.setType("pulumi-nodejs:dynamic:Resource");
    r.setName("child");
    r.setCustom(true);
    r.setParent("urn:pulumi:dev::proj::test:index:Group::keep");
    set(r);
    return r;
  };
  const parent = { retainOnDelete: true, deletedWith: "urn:pulumi:dev::proj::x:y:Z::owner" };

  it("retainOnDelete and deletedWith, when the child does not set them", () => {
    const r = registrationOf(
      job,
      request(() => undefined),
      parent,
    );
    expect(r.options).toMatchObject(parent);
    expect(r.parent).toBe("urn:pulumi:dev::proj::test:index:Group::keep");
  });

  it("not over the child's own values, false included", () => {
    const r = registrationOf(
      job,
      request((q) => {
        q.setRetainondelete(false);
        q.setDeletedwith("urn:pulumi:dev::proj::x:y:Z::other");
      }),
      parent,
    );
    expect(r.options).toMatchObject({ retainOnDelete: false, deletedWith: "urn:pulumi:dev::proj::x:y:Z::other" });
  });
});
