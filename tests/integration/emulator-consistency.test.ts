/** The emulator's made-up traffic must look like traffic: a zone's files never outgrow the zone. */
import { CdnClient } from "../../provider/api";
import { startEmulator } from "../../provider/emulator";

test("popular files of a zone stay within the zone's own hits and bytes", async () => {
  const emu = await startEmulator({ port: 0 });
  const client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey });
  try {
    const zone = await client.pullzone.create({ values: { name: "consistent", origin: "https://o.example.com" } });
    const [from, to] = ["2026-10-01", "2026-10-31"];
    const files = await client.report.getPopularFiles({
      companyId: "acme",
      dateFrom: from,
      dateTo: to,
      zoneId: zone.id,
    });
    const days = await client.report.getUsagePerDay({ companyId: "acme", dateFrom: from, dateTo: to, zoneId: zone.id });
    if (typeof days === "number") throw new Error("the default profile answers rows");
    expect(files.length).toBeGreaterThan(100);
    expect(days).toHaveLength(31);
    const sum = (rows: { hits?: number; transfer?: number }[], k: "hits" | "transfer") =>
      rows.reduce((a, r) => a + r[k]!, 0);
    expect(sum(files, "hits")).toBeLessThanOrEqual(sum(days, "hits"));
    expect(sum(files, "transfer")).toBeLessThanOrEqual(sum(days, "transfer"));
    expect(files[0].hits).toBeGreaterThan(files[files.length - 1].hits!);
  } finally {
    client.close();
    await emu.close();
  }
});
