/**
 * Report dates read into one form: `Y-m-d` (day), `Y-m-d HH:00` (hour), `Y-m` (month), from that text, database text
 * or `dateTime.iso8601` text, as written in the report's time zone (an offset is dropped). A value that is no date or
 * not at the start of its day, hour or month is refused, never guessed: a report matched by date must not drop rows.
 * Also the `Y-m-d` check of the dates the API takes.
 */

/** How finely a report field dates its rows. */
export type DateGrain = "day" | "hour" | "month";

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
/** `Y-m-d`, `Ymd`, with an optional time (`T` or a space; `HH`, `HH:mm`, `HH:mm:ss`, `HHmmss`, fractions) and offset. */
const DATE_TIME =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const FORMS: Record<DateGrain, string> = { day: "Y-m-d", hour: "Y-m-d HH:00", month: "Y-m" };

/** The parts of a date as written, or undefined when the text is no date. */
function parts(text: string) {
  const month = MONTH.exec(text);
  if (month) {
    const ok = Number(month[2]) >= 1 && Number(month[2]) <= 12;
    return ok ? { y: month[1], mo: month[2], d: undefined, timed: false, h: 0, mi: 0, s: 0 } : undefined;
  }
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const real = new Date(Date.UTC(y, mo - 1, d));
  if (real.getUTCMonth() !== mo - 1 || real.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return { y: m[1], mo: m[2], d: m[3], timed: m[4] !== undefined, h, mi, s };
}

/** A report row's date (the decoder's text) in the form of its grain, or the reason it cannot be one. */
export function reportDate(
  value: unknown,
  grain: DateGrain,
): { ok: true; date: string } | { ok: false; reason: string } {
  const form = FORMS[grain];
  if (typeof value !== "string")
    return { ok: false, reason: `is ${typeof value === "number" ? value : `a ${typeof value}`}, not a date (${form})` };
  const text = value.trim();
  const p = parts(text);
  if (!p) return { ok: false, reason: `is '${text.slice(0, 40)}', not a date (${form}, or an ISO 8601 date and time)` };
  const notAtStart = (unit: string) => ({
    ok: false as const,
    reason: `is '${text}', which is not the start of ${unit === "hour" ? "an" : "a"} ${unit}: which ${unit} it counts for would be a guess`,
  });
  if (grain === "month") {
    if ((p.d !== undefined && p.d !== "01") || p.h || p.mi || p.s) return notAtStart("month");
    return { ok: true, date: `${p.y}-${p.mo}` };
  }
  if (p.d === undefined) return { ok: false, reason: `is '${text}', a month where a ${grain} (${form}) is due` };
  if (grain === "day") {
    if (p.h || p.mi || p.s) return notAtStart("day");
    return { ok: true, date: `${p.y}-${p.mo}-${p.d}` };
  }
  if (!p.timed) return { ok: false, reason: `is '${text}', a day where an hour (${form}) is due` };
  if (p.mi || p.s) return notAtStart("hour");
  return { ok: true, date: `${p.y}-${p.mo}-${p.d} ${String(p.h).padStart(2, "0")}:00` };
}

/** Whether `s` is a real calendar date in `Y-m-d` form (the dates of the report and account methods, §4.1). */
export function isYmd(s: string): boolean {
  const m = YMD.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** A `Date` as the `Y-m-d` of its UTC calendar day. */
export function toYmd(d: Date): string {
  return d.toISOString().slice(0, 10);
}
