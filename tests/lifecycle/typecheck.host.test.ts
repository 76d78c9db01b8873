/**
 * The driver's `typecheck: true`, in process but in the host project: the TypeScript compiler's whole-program
 * check of a program takes seconds, more than the rest of the fast suite's files.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { up } from "../../provider/testing";
import { typeErrors } from "../../provider/testing/typecheck";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "driver-typecheck-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("typecheck: true", () => {
  const root = path.join(__dirname, "..", "..");
  it("fails an up of a program with type errors before any process starts", async () => {
    const program = path.join(dir, "typed-wrong.ts");
    fs.writeFileSync(program, 'const n: number = "text";\nexport const out = n;\n');
    const r = await up({
      program,
      projectDir: root,
      stateFile: path.join(dir, "typed.json"),
      project: "p",
      typecheck: true,
    });
    expect(r.ok).toBe(false);
    expect(r.processes).toEqual({});
    expect(r.errors[0]).toMatch(
      /the program has type errors \(typecheck: true\):\n.*typed-wrong\.ts\(1,7\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
    expect(fs.existsSync(path.join(dir, "typed.json"))).toBe(false);
  });

  it("finds none in a correct program", () => {
    const program = path.join(dir, "typed-right.ts");
    fs.writeFileSync(program, "const n: number = 1;\nexport const out = n;\n");
    expect(typeErrors(program, root)).toEqual([]);
  });
});
