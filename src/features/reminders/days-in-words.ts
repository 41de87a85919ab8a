// The days of a reminder given as cron day fields, said back in words: "Monday to Friday", "Monday,
// Wednesday and Friday", "the 1st of each month". Fields that say more than a list of week days or of
// month days (steps, months) are said as typed, in a code span, since any paraphrase could be wrong.

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_ABBREVIATIONS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A week day as cron takes it (0-7, or its three letters), as its name; undefined otherwise. */
function dayName(field: string): string | undefined {
  const lower = field.toLowerCase();
  const index = /^[0-7]$/.test(lower) ? Number(lower) % 7 : DAY_ABBREVIATIONS.indexOf(lower);
  return DAY_NAMES[index];
}

/** "a, b and c". */
function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

/** "Monday to Friday", "Monday and Wednesday"; undefined when a part is not a day or a day range. */
function weekDaysInWords(field: string): string | undefined {
  const parts = field.split(',').map((part) => {
    const [from, to, ...rest] = part.split('-');
    if (rest.length > 0 || from === undefined) return undefined;
    const first = dayName(from);
    if (to === undefined) return first;
    const last = dayName(to);
    return first === undefined || last === undefined ? undefined : `${first} to ${last}`;
  });
  return parts.every((part) => part !== undefined) ? listInWords(parts) : undefined;
}

/** "the 1st and 15th of each month"; undefined unless every part is a day of the month. */
function monthDaysInWords(field: string): string | undefined {
  const days = field.split(',').map((part) => (/^\d{1,2}$/.test(part) ? Number(part) : Number.NaN));
  if (days.some((day) => !(day >= 1 && day <= 31))) return undefined;
  return `the ${listInWords(days.map(ordinal))} of each month`;
}

/** The days of `dayOfMonth month dayOfWeek` (already checked by node-cron) in words. */
export function daysInWords(dayOfMonth: string, month: string, dayOfWeek: string): string {
  const words =
    month !== '*'
      ? undefined
      : dayOfMonth === '*'
        ? weekDaysInWords(dayOfWeek)
        : dayOfWeek === '*'
          ? monthDaysInWords(dayOfMonth)
          : undefined;
  return words ?? `the days \`${dayOfMonth} ${month} ${dayOfWeek}\``;
}
