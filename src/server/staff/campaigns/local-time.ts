/**
 * A campaign's start and end as staff type them (issue #34: "date and time in `TZ`"): local date-times
 * `YYYY-MM-DDTHH:mm` in the staff's time zone, to and from instants, with nothing but `Intl` (as digest/time-zone.ts).
 * NOTE: never the process's local time: Node reads `TZ` too, and a test may set it differently.
 */

/** Formatters by time zone name (building one is far costlier than using it). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** `instant` as a local date-time `YYYY-MM-DDTHH:mm` in `timeZone` (seconds dropped). Throws a RangeError for an unknown zone. */
export function toLocalDateTime(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Milliseconds of a local date-time read as if it were UTC. */
const asUtcMs = (local: string) => Date.parse(`${local}:00Z`);

/**
 * The instant the local date-time `local` (`YYYY-MM-DDTHH:mm`) names in `timeZone`: its offset found from a first guess
 * and checked once more, so a time near a daylight saving change lands right. A local time the clocks skip (02:30 on a
 * spring-forward night) is the instant an hour later; one they pass twice, the first. Throws a RangeError for an
 * unknown zone.
 */
export function fromLocalDateTime(local: string, timeZone: string): Date {
  const target = asUtcMs(local);
  let instant = target;
  for (let i = 0; i < 3; i += 1) {
    const offset = asUtcMs(toLocalDateTime(new Date(instant), timeZone)) - instant;
    const next = target - offset;
    if (next === instant) break;
    instant = next;
  }
  return new Date(instant);
}
