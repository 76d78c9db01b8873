/**
 * Figures and zones in answers (issue 25, points 7 and 8), against a server that answers a crafted body over real
 * HTTP. A figure that is NaN, an infinity or a negative count is a malformed answer naming the field, never null or
 * a number passed on; bandwidth figures are numbers under one set of names whatever the server called them; a
 * report row of a whole account (zone_id 0, nil or none) is kept, its zone `null`.
 */
import { CdnClient, CdnProtocolError } from "../../provider/api";
import { getBandwidth, getPopularFiles, getTotalTransferStats } from "../../provider/functions";
import { rpc, useScriptedServer } from "../support/scriptedServer";

const server = useScriptedServer();
let client: CdnClient;
beforeAll(() => {
  client = server.get().client();
});
afterAll(() => client.close());
beforeEach(() => server.get().reset());

const { answer, struct, array: arr } = rpc;
const serve = (xml: string) => server.get().body(xml);
const FROM = "2026-10-01";
const TO = "2026-10-07";

/** The error a call ends with (undefined when it succeeds). */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe("account.getBandwidth: the figures under one set of names, whatever the spelling", () => {
  test.each([
    ["snake_case with _bandwidth", "prepaid_bandwidth", "used_bandwidth", "remaining_bandwidth"],
    ["camelCase", "prepaidBandwidth", "usedBandwidth", "remainingBandwidth"],
    ["bandwidth_ first", "bandwidth_prepaid", "bandwidth_used", "bandwidth_remaining"],
    ["upper case", "PREPAID", "USED", "REMAINING"],
    ["with _bytes", "prepaid_bytes", "used_bytes", "remaining_bytes"],
    ["kebab-case", "prepaid-bandwidth", "used-bandwidth", "remaining-bandwidth"],
  ])("%s", async (_what, prepaid, used, remaining) => {
    serve(
      answer(
        struct({
          date_from: `<string>${FROM}</string>`,
          date_to: `<string>${TO}</string>`,
          [prepaid]: "<string>100</string>",
          [used]: "<double>40.0</double>",
          [remaining]: "<i8>60</i8>",
          plan: "<string>gold</string>",
        }),
      ),
    );
    const bw = await client.account.getBandwidth();
    expect(bw).toMatchObject({ prepaid: 100, used: 40, remaining: 60, from: FROM, to: TO, hasData: true });
    // One name per figure, a number; the answer as sent stays in `raw`.
    expect(bw.rows).toEqual([{ from: FROM, to: TO, prepaid: 100, used: 40, remaining: 60, plan: "gold" }]);
    expect(bw.raw).toMatchObject({ [prepaid]: "100" });
    const fn = await getBandwidth({}, { connection: client });
    expect(fn).toMatchObject({ prepaid: 100, used: 40, remaining: 60 });
    expect(Object.keys(fn.rows[0]).sort()).toEqual(["from", "plan", "prepaid", "remaining", "to", "used"]);
  });

  test("a balance overdrawn: remaining may be negative; prepaid and used may not", async () => {
    serve(answer(struct({ prepaid: "<int>100</int>", used: "<int>130</int>", remaining: "<int>-30</int>" })));
    expect(await client.account.getBandwidth()).toMatchObject({ prepaid: 100, used: 130, remaining: -30 });
    serve(answer("<int>-30</int>"));
    expect(await client.account.getBandwidth()).toMatchObject({ remaining: -30 });
  });
});

describe("figures that are not figures are a malformed answer naming the field", () => {
  test.each([
    ["bandwidth NaN", "<double>nan</double>", /field '\(answer\)' \(the bytes left\) is NaN/],
    ["bandwidth Infinity", "<double>inf</double>", /is Infinity/],
    ["bandwidth -Infinity", "<double>-inf</double>", /is -Infinity/],
    ["bandwidth 'NaN' as text", "<string>NaN</string>", /is NaN/],
    ["bandwidth beyond 2^53", "<double>1e308</double>", /beyond 2\^53/],
    ["bandwidth -1e308", "<double>-1e308</double>", /beyond 2\^53/],
    ["used NaN in a row", arr(struct({ used: "<double>nan</double>" })), /field 'used' in row 1 is NaN/],
    ["prepaid negative", struct({ prepaid: "<int>-5</int>" }), /field 'prepaid' in row 1 is negative \(-5\)/],
    [
      "used -1e308",
      struct({ used_bandwidth: "<double>-1e308</double>" }),
      /field 'used_bandwidth' in row 1 is negative/,
    ],
  ])("account.getBandwidth: %s", async (_what, value, message) => {
    serve(answer(value));
    const e = await failure(client.account.getBandwidth());
    expect(e).toBeInstanceOf(CdnProtocolError);
    expect(e!.message).toMatch(/^account\.getBandwidth: malformed response: /);
    expect(e!.message).toMatch(message);
  });

  const row = (figures: Record<string, string>) =>
    answer(arr(struct({ date: `<string>${FROM}</string>`, zone_id: "<int>5</int>", ...figures })));
  test.each([
    ["hits NaN", { hits: "<double>nan</double>" }, /field 'hits' in row 1 is NaN/],
    ["transfer Infinity", { transfer: "<double>inf</double>" }, /field 'transfer' in row 1 is Infinity/],
    ["hits -5", { hits: "<int>-5</int>" }, /field 'hits' in row 1 is negative \(-5\)/],
    ["transfer -1e308", { transfer: "<double>-1e308</double>" }, /field 'transfer' in row 1 is negative/],
    ["size (a later name) NaN", { size: "<string>nan</string>" }, /field 'size' in row 1 is NaN/],
  ])("a report row: %s", async (_what, figures, message) => {
    serve(row(figures));
    const e = await failure(client.report.getTotalTransferStats({ companyId: "acme", dateFrom: FROM, dateTo: TO }));
    expect(e).toBeInstanceOf(CdnProtocolError);
    expect(e!.message).toMatch(/^report\.getTotalTransferStats: malformed response: /);
    expect(e!.message).toMatch(message);
  });

  test("a bare total that is NaN", async () => {
    serve(answer("<double>nan</double>"));
    const e = await failure(client.report.getTotalHits({ zoneId: 5, type: 1 }));
    expect(e).toBeInstanceOf(CdnProtocolError);
    expect(e!.message).toMatch(/the report's total\) is NaN/);
  });
});

describe("report rows of a whole account: zone_id 0, nil or none is a row of no single zone", () => {
  const rowWith = (zone: Record<string, string>) =>
    struct({ date: `<string>${FROM}</string>`, transfer: "<double>10.0</double>", hits: "<int>2</int>", ...zone });
  test("0 as int, i8 and text, nil, empty and no column: kept, zoneId null", async () => {
    serve(
      answer(
        arr(
          rowWith({ zone_id: "<int>0</int>" }),
          rowWith({ zone_id: "<i8>0</i8>" }),
          rowWith({ zone_id: "<string>0</string>" }),
          rowWith({ bucket_id: "<int>0</int>" }),
          rowWith({ zone_id: "<nil/>" }),
          rowWith({ zone_id: "<string></string>" }),
          rowWith({}),
          rowWith({ zone_id: "<int>7</int>" }),
        ),
      ),
    );
    const rows = await client.report.getTotalTransferStats({ companyId: "acme", dateFrom: FROM, dateTo: TO });
    expect(rows.map((r) => r.zone_id)).toEqual([null, null, null, null, null, null, null, 7]);
    expect(rows.every((r) => r.transfer === 10 && r.hits === 2)).toBe(true);
    const fn = await getTotalTransferStats({ companyId: "acme", dateFrom: FROM, dateTo: TO }, { connection: client });
    expect(fn.rows.map((r) => r.zoneId)).toEqual([null, null, null, null, null, null, null, 7]);
  });

  test("a zone asked for: a row without a zone column is of that zone, left without zoneId", async () => {
    serve(answer(arr(struct({ url: "<string>/a.css</string>", hits: "<int>3</int>" }))));
    const files = await getPopularFiles(
      { companyId: "acme", dateFrom: FROM, dateTo: TO, zoneId: 5 },
      { connection: client },
    );
    expect(files.rows).toEqual([{ url: "/a.css", hits: 3 }]);
  });

  test("an id that is no id is still a malformed answer", async () => {
    serve(answer(arr(rowWith({ zone_id: "<int>-3</int>" }))));
    const e = await failure(client.report.getTotalTransferStats({ companyId: "acme", dateFrom: FROM, dateTo: TO }));
    expect(e).toBeInstanceOf(CdnProtocolError);
    expect(e!.message).toMatch(/zone_id in row 1/);
  });
});
