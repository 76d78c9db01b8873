/** Driver inputs read in process: the project name from Pulumi.yaml, and the URNs of a request's aliases. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Alias } from "@pulumi/pulumi/proto/alias_pb";
import { RegisterResourceRequest } from "@pulumi/pulumi/proto/resource_pb";
import { projectNameOf } from "../../provider/testing/driver";
import { aliasUrns } from "../../provider/testing/program";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "driver-options-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the project name", () => {
  it("is the name in the nearest Pulumi.yaml upwards from the program, else 'project'", () => {
    const root = path.join(dir, "repo");
    const program = path.join(root, "app", "src");
    fs.mkdirSync(program, { recursive: true });
    expect(projectNameOf(program)).toBe("project"); // no Pulumi.yaml above the temporary directory
    fs.writeFileSync(path.join(root, "Pulumi.yaml"), "runtime: nodejs\nname: outer # the repository\n");
    expect(projectNameOf(program)).toBe("outer");
    fs.writeFileSync(
      path.join(root, "app", "Pulumi.yaml"),
      'description: "x"\nname: "cdn-app"\nruntime:\n  name: nodejs\n',
    );
    expect(projectNameOf(program)).toBe("cdn-app");
    fs.writeFileSync(path.join(root, "app", "Pulumi.yaml"), "runtime: nodejs\n");
    expect(() => projectNameOf(program)).toThrow(/Pulumi.yaml has no top-level name: set it, or pass project/);
  });

  it("of the driver's own fixture is 'project', the name its tests' URNs use", () => {
    expect(projectNameOf(path.join(__dirname, "..", "fixtures", "driver"))).toBe("project");
  });
});

describe("aliases of a RegisterResource request", () => {
  const job = { stack: "dev", project: "proj" };
  const stack = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
  const request = (aliases: Alias[]): RegisterResourceRequest => {
    const req = new RegisterResourceRequest();
    req.setType("pulumi-nodejs:dynamic:Resource");
    req.setName("new-name");
    req.setParent(stack);
    req.setAliasesList(aliases);
    return req;
  };
  const spec = (f: (s: Alias.Spec) => void): Alias => {
    const s = new Alias.Spec();
    f(s);
    return new Alias().setSpec(s);
  };

  it("fills a spec's empty fields from the resource (collapseAliasToUrn) and keeps URNs as given", () => {
    const given = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic:Resource::given";
    const urns = aliasUrns(
      job,
      request([
        spec((s) => s.setName("old-name").setParenturn(stack)), // as the SDK sends `{ name: "old-name" }`
        new Alias().setUrn(given),
        spec((s) => s.setName("elsewhere").setProject("other").setStack("prod").setNoparent(true)),
        spec((s) => s.setName("child").setParenturn("urn:pulumi:dev::proj::my:Component::parent")),
      ]),
    );
    expect(urns).toEqual([
      "urn:pulumi:dev::proj::pulumi-nodejs:dynamic:Resource::old-name",
      given,
      "urn:pulumi:prod::other::pulumi-nodejs:dynamic:Resource::elsewhere",
      "urn:pulumi:dev::proj::my:Component$pulumi-nodejs:dynamic:Resource::child",
    ]);
  });
});
