import * as z from "zod/mini";

/**
 * `z.iso.datetime()` — the same schema, the same answers and the same issues — whose regular
 * expression runs only on a value a hand check refuses (ADR 0010, "The gates, fifth round").
 *
 * V8 compiles a regular expression the first time it runs, in every process, and again to
 * native code on its second run; zod's datetime pattern is a large one (every month's days, the
 * leap years), and a gate checks one or two times per call (the log lines it reads, the event
 * it appends): ~1–2 M instructions of a call that is ~140 M. `isIsoDateTime` accepts exactly
 * the strings that pattern accepts (`YYYY-MM-DDTHH:MM:SS`, an optional `.` and digits, `Z`; a
 * real calendar date, 29 February in leap years), reading characters, and the pattern itself
 * (built then, not before: V8 parses a pattern as it is constructed) is the judge of anything
 * else, so a value the hand check wrongly refused would still pass and the issue of a value that
 * fails is zod's own. `iso-datetime.test.ts` holds the hand check to
 * the pattern on generated strings.
 */
export function isoDateTime(): z.ZodMiniISODateTime {
  // zod takes a given pattern instead of building its own (`def.pattern ??=`), and its check
  // reads only `lastIndex`, `test` and, for an issue, `toString`. zod's own pattern is built on
  // the first value the hand check refuses, never for a value it accepts.
  let zods: RegExp | undefined;
  const zodPattern = () => (zods ??= z.iso.datetime()._zod.def.pattern as RegExp);
  const pattern = {
    lastIndex: 0,
    test: (value: string) => isIsoDateTime(value) || zodPattern().test(value),
    toString: () => zodPattern().toString(),
    get source() {
      return zodPattern().source;
    },
    get flags() {
      return zodPattern().flags;
    },
  };
  // Not in the params' type, though zod copies params into the schema's def, `pattern` with them.
  const params = { pattern } as unknown as Parameters<typeof z.iso.datetime>[0];
  return z.iso.datetime(params);
}

const ZERO = 48;

/** The digits at `text[from, from + count)` as a number, or -1 when one is not an ASCII digit. */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let at = from; at < from + count; at += 1) {
    const digit = text.charCodeAt(at) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Days in a month as zod's date pattern allows them (February 29 in Gregorian leap years). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `YYYY-MM-DD` at the start of `text`, a real calendar date. */
function isDate(text: string): boolean {
  if (text[4] !== "-" || text[7] !== "-") return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/** `HH:MM:SS` at `text[11]`: hours 00–23, minutes and seconds 00–59. */
function isTime(text: string): boolean {
  if (text[13] !== ":" || text[16] !== ":") return false;
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

/**
 * True exactly when zod's default datetime pattern matches: `YYYY-MM-DDTHH:MM:SS`, optionally
 * `.` and one or more digits, then `Z`.
 */
export function isIsoDateTime(text: string): boolean {
  const length = text.length;
  if (length < 20 || text.charCodeAt(length - 1) !== 90 /* Z */ || text[10] !== "T") return false;
  if (!isDate(text) || !isTime(text)) return false;
  // Then `Z` at once, or a fraction of at least one digit before it.
  if (length === 20) return true;
  return text[19] === "." && length > 21 && digits(text, 20, length - 21) >= 0;
}

const DAY_MS = 86_400_000;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `date.toISOString()`, computed by hand for the years 0000–9999 (the rest, and an invalid date,
 * still go to `toISOString`). A hook's first `toISOString` makes V8 set up its time-zone cache:
 * it opens and parses `/etc/localtime` through ICU, ~0.2 M instructions with UTC and ~0.5 M with
 * a real zone (ADR 0010, seventh round), for a UTC string that needs no zone. Civil date from
 * days since the epoch as in Howard Hinnant's `civil_from_days`; `iso-datetime.test.ts` holds it
 * to `toISOString` on generated instants.
 */
export function isoString(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= -62_167_219_200_000 && ms <= 253_402_300_799_999)) return date.toISOString();
  const days = Math.floor(ms / DAY_MS);
  const inDay = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const milli = inDay % 1000;
  const seconds = Math.floor(inDay / 1000);
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}T${pad2(
    Math.floor(seconds / 3600),
  )}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}.${String(milli).padStart(3, "0")}Z`;
}
