/** The text `cdn-zones import` renders from listed rows: identifiers, names, fields, passwords. */
import { renderProgram } from "../../provider/cli/program";

const pull = (id: number, name: string, extra: Record<string, string> = {}) => ({
  kind: "pull" as const,
  row: {
    id,
    name,
    origin: "https://o.example.com",
    vhost: "",
    ip: "",
    compress: "",
    vanity_domain: "",
    vanity_ip: "203.0.113.1",
    ...extra,
  },
});

test("names that differ only in case, or fold to the same words, get distinct variables and resource names", () => {
  const { text } = renderProgram([
    pull(1, "www"),
    pull(2, "WWW"),
    pull(3, "w-ww"),
    { kind: "push", row: { id: 4, name: "www", vanity_domain: "", storage_location: "x" } },
  ]);
  const vars = [...text.matchAll(/^const (\w+) = new (\w+)\("([^"]+)"/gm)].map((m) => [m[1], m[2], m[3]]);
  expect(vars).toEqual([
    ["pullWWW", "PullZone", "WWW"],
    ["pullWWw2", "PullZone", "w-ww"],
    ["pullWww3", "PullZone", "www-2"],
    ["pushWww", "PushZone", "www"],
  ]);
  // The zone's own name is always declared, whatever the resource is called.
  expect(text).toContain('new PullZone("www-2", {\n  name: "www",');
});

test("listed fields are declared, empty ones and computed outputs are not; a password comes from secret config", () => {
  const { text, passwords } = renderProgram([
    pull(1, "a", { vhost: "h.example.com", compress: "0" }),
    { kind: "vod", row: { id: 2, name: "v", storage_location: "s1" } },
  ]);
  expect(text).toContain(
    'new PullZone("a", {\n  name: "a",\n  origin: "https://o.example.com",\n  vhost: "h.example.com",\n  compress: "0",\n  adopt: true,\n});',
  );
  expect(text).not.toMatch(/vanityIp|storageLocation|ip: ""/);
  expect(text).toContain('password: config.requireSecret("vodVPassword"),');
  expect(passwords).toEqual([{ configKey: "vodVPassword", kind: "vod", zoneName: "v" }]);
});

test("strings are escaped as TypeScript literals", () => {
  const { text } = renderProgram([pull(1, "q", { origin: 'https://o.example.com/"x"\\' })]);
  expect(text).toContain('origin: "https://o.example.com/\\"x\\"\\\\",');
});
