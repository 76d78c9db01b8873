/**
 * docs/testing.md, "Unit tests with setMocks": the program under `pulumi.runtime.setMocks`. The
 * zone is answered by `newResource`, the function by `call` with its token `cdn:index:getPullZones`;
 * nothing reaches an API.
 */
import * as pulumi from "@pulumi/pulumi";

const calls: string[] = [];

pulumi.runtime.setMocks({
  newResource: (args) => ({
    id: `${args.name}-id`,
    state: { ...args.inputs, zoneId: 17, cdnUrl: `${args.inputs.name}.acme.cdn.example.net` },
  }),
  call: (args) => {
    calls.push(args.token);
    return args.token === "cdn:index:getPullZones" ? { zones: [{ kind: "pull", zoneId: 17, name: "guide-site" }] } : {};
  },
});

/** The value of an Output, in a test. */
const valueOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

test("the site zone has the declared origin and a delivery host; the lookup answers from the mocks", async () => {
  const program = await import("./program");
  expect(await valueOf(program.site.origin)).toBe("https://origin.example.com");
  expect(await valueOf(program.site.cdnUrl)).toBe("guide-site.acme.cdn.example.net");
  expect(await valueOf(program.pullZoneCount)).toBe(1);
  expect(calls).toEqual(["cdn:index:getPullZones"]);
});
