// Time zones by IANA name, as Slack's users.info reports them (`tz`, and `tz_offset` in seconds).

/** Whether the runtime knows this IANA time zone name (e.g. `Europe/Amsterdam`). */
export function isTimeZone(name: string): boolean {
  if (name === '' || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at that moment, in seconds east of UTC (Amsterdam in summer: 7200). */
export function timeZoneOffsetSeconds(name: string, at: number): number {
  const label = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(label ?? '');
  if (match === null) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60;
  return match[1] === '-' ? -seconds : seconds;
}
