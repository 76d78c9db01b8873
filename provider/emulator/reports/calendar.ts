/** Dates and time zones for reports: a local day is the UTC hours between two local midnights (23 or 25 on DST days). */
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from "luxon";
import { toYmd } from "../../api/dates";
import { Faults } from "../errors";

export const HOUR_MS = 3_600_000;
/** Longest date range a report or getBandwidth accepts (about ten years). */
const MAX_RANGE_DAYS = 3_660;
const DAY_MS = 86_400_000;
const zones = new Map<string, Zone | null>();

/** GMT, the zone of getBandwidth and of the reports that take no time zone (`timeZone("GMT")` gives the same). */
export const GMT: Zone = FixedOffsetZone.utcInstance;

/** The luxon zone for "GMT" or an IANA name, or undefined for anything else. */
export function timeZone(name: string): Zone | undefined {
  let zone = zones.get(name);
  if (zone === undefined) {
    zone = name === "GMT" || name === "UTC" ? GMT : IANAZone.isValidZone(name) ? IANAZone.create(name) : null;
    if (zones.size < 1000) zones.set(name, zone);
  }
  return zone ?? undefined;
}

/** A `Y-m-d` date as days since the epoch (calendar arithmetic, no time zone). */
export function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

/** The `Y-m-d` date of a day number. */
export const dayDate = (day: number): string => toYmd(new Date(day * DAY_MS));

/** One local day of a report. */
export interface LocalDay {
  readonly date: string;
  /** Epoch ms of the local day's first instant. */
  readonly startMs: number;
  /** 24, or 23/25 on DST days. */
  readonly hours: number;
}

function localStart(day: number, zone: Zone): number {
  return zone === GMT ? day * DAY_MS : DateTime.fromISO(dayDate(day), { zone }).toMillis();
}

/** The local days from `from` to `to` inclusive (both `Y-m-d`). */
export function localDays(from: string, to: string, zone: Zone): LocalDay[] {
  const first = dayNumber(from);
  const last = dayNumber(to);
  const out: LocalDay[] = [];
  let start = localStart(first, zone);
  for (let day = first; day <= last; day++) {
    const next = localStart(day + 1, zone);
    out.push({ date: dayDate(day), startMs: start, hours: Math.round((next - start) / HOUR_MS) });
    start = next;
  }
  return out;
}

/** The local days of `from..to` once the range is checked: INVALID_PARAMS, naming the parameters, when it is not. */
export function rangeDays(from: string, to: string, zone: Zone, names = ["dateFrom", "dateTo"]): LocalDay[] {
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) throw Faults.invalidParams(`${names[1]} ${to} is before ${names[0]} ${from}`);
  if (days > MAX_RANGE_DAYS)
    throw Faults.invalidParams(
      `the range ${from}..${to} is longer than the emulator's limit of ${MAX_RANGE_DAYS} days`,
    );
  return localDays(from, to, zone);
}

/** The label `Y-m-d HH:00` of the `index`-th hour of a local day. */
export function hourLabel(day: LocalDay, index: number, zone: Zone): string {
  if (day.hours === 24) return `${day.date} ${String(index).padStart(2, "0")}:00`;
  return DateTime.fromMillis(day.startMs + index * HOUR_MS, { zone }).toFormat("yyyy-MM-dd HH:00");
}

/** Today's date and the current local hour in `zone`. */
export function localNow(nowMs: number, zone: Zone): { date: string; hour: number } {
  const t = DateTime.fromMillis(nowMs, { zone });
  return { date: t.toFormat("yyyy-MM-dd"), hour: t.hour };
}
