/**
 * Dates written as English text, read the way the platform's `created_offset` is documented (PHP's strtotime):
 * "2010-05-14 23:44:32", "2010-05-14", "yesterday", "3 days ago", "last monday 9am", and "@1389715233" for a unix
 * time. chrono-node reads the text; @date-fns/tz places wall-clock times in the district's time zone.
 */
import { TZDate, tzOffset } from '@date-fns/tz';
import * as chrono from 'chrono-node';

// strtotime's "@1389715233"; a bare number counts as a unix time only when long enough not to be a year or a time.
const unixTime = /^(?:@(\d{1,12})|(\d{9,12}))$/;

/** The instant the text names, read in `timeZone` (IANA), or null when it is not a date, or not only a date. */
export function readDateText(text: string, timeZone: string, now = new Date()): Date | null {
  const trimmed = text.trim();
  const unix = unixTime.exec(trimmed);
  if (unix) return new Date(Number(unix[1] ?? unix[2]) * 1000);
  // Relative expressions count from now as the district's clock shows it.
  const [result] = chrono.parse(trimmed, { instant: now, timezone: tzOffset(timeZone, now) });
  // Trailing words chrono skipped ("2010-05-14 lorem") make the text unreadable, as strtotime finds it.
  if (result?.index !== 0 || result.text.length !== trimmed.length) return null;
  const { start } = result;
  const part = (name: chrono.Component) => start.get(name) ?? 0;
  // A named day without a time means its midnight ("yesterday", "2010-05-14"), as in strtotime; chrono picks noon.
  // Offsets from now ("3 days ago") keep the time of day.
  const midnight = !start.isCertain('hour') && !start.tags().has('result/relativeDate');
  const [hour, minute, second] = midnight ? [0, 0, 0] : [part('hour'), part('minute'), part('second')];
  const [year, month, day] = [part('year'), part('month') - 1, part('day')];
  // A time zone the text names (or "now") is exact; otherwise the wall-clock time is the district's.
  if (start.isCertain('timezoneOffset')) {
    return new Date(Date.UTC(year, month, day, hour, minute, second) - part('timezoneOffset') * 60_000);
  }
  return new Date(+new TZDate(year, month, day, hour, minute, second, timeZone));
}

/** Whether the name is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** A calendar day as written in `YYYY-MM-DD` or `YYYYMMDD` (the events list's `start_date`), or null if it is not one. */
export function readDay(text: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text);
  if (!match || (text.length === 10) !== text.includes('-')) return null;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  // Date rolls 2024-02-30 over into March: a day that rolls over does not exist.
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? { year, month, day } : null;
}

/** The instant a day starts in `timeZone`, `daysLater` days on. */
export function startOfDay(
  { year, month, day }: { year: number; month: number; day: number },
  timeZone: string,
  daysLater = 0,
): Date {
  return new Date(+new TZDate(year, month - 1, day + daysLater, 0, 0, 0, timeZone));
}

/**
 * A wall-clock time written `YYYY-MM-DD HH:MM:SS` (the platform's datetime), read in `timeZone`; null when it is not
 * one or names a day or time that does not exist. A time skipped by a daylight-saving change moves forward by the gap.
 */
export function readWallClock(text: string, timeZone: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text);
  const day = match && readDay(match[1]!);
  if (!match || !day) return null;
  const [hour, minute, second] = match.slice(2).map(Number) as [number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return null;
  return new Date(+new TZDate(day.year, day.month - 1, day.day, hour, minute, second, timeZone));
}

/**
 * An ISO 8601 instant: a date and time with `Z` or a UTC offset, such as `2026-06-05T23:00:00.000Z` (what a
 * `DateTime` field answers) or `2026-06-05T18:00:00-05:00`; null when it is not one or names a day or time that does
 * not exist. Digits past the millisecond are dropped, as the database keeps milliseconds.
 */
export function readInstant(text: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):?(\d{2}))$/.exec(
    text,
  );
  const day = match && readDay(match[1]!);
  if (!match || !day) return null;
  const [hour, minute, second, offsetHours, offsetMinutes] = [2, 3, 4, 7, 8].map((group) =>
    Number(match[group] ?? 0),
  ) as [number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const milliseconds = Number((match[5] ?? '').padEnd(3, '0').slice(0, 3));
  const offset = (match[6] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(Date.UTC(day.year, day.month - 1, day.day, hour, minute, second, milliseconds) - offset);
}

/**
 * A time written either way a calendar takes one: an ISO 8601 instant with `Z` or an offset (`readInstant`), which
 * is exact, or a wall-clock `YYYY-MM-DD HH:MM:SS` without one (`readWallClock`), read in `timeZone`. So what a
 * `DateTime` field answered can be sent back as it is.
 */
export function readWallClockOrInstant(text: string, timeZone: string): Date | null {
  return readInstant(text) ?? readWallClock(text, timeZone);
}

/** An instant as the wall clock of `timeZone` shows it: `YYYY-MM-DD HH:MM:SS`. */
export function formatWallClock(instant: Date, timeZone: string): string {
  const local = new TZDate(instant, timeZone);
  const date = `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
  return `${date} ${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}`;
}
