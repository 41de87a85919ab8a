// The recent events of a machine as one line for a card's context: what was done to it lately, when,
// and whether it worked ("create ✅ 09:58 → start ❌ out of capacity"). Show results carry events
// newest first; the line reads oldest first, like the card's state timeline.
import type { MachineEvent } from '../../../paperspace/schemas.js';
import { escapeMrkdwn, isoMinutes, slackDate, truncate } from '../../../slack/block-kit/text.js';

/** The line is for "what happened lately", not a history. */
const EVENTS_SHOWN = 5;
const ERROR_CHARS = 120;

const STATE_MARKS: Record<string, string> = {
  done: '✅',
  error: '❌',
  'in progress': '⏳',
  new: '🕘',
};

/** `Recent: create ✅ <date> → start ⏳ <date>`, or undefined when there are no events. */
export function machineEventsLine(events: readonly MachineEvent[]): string | undefined {
  const recent = events.slice(0, EVENTS_SHOWN).reverse();
  if (recent.length === 0) return undefined;
  const steps = recent.map((event) => {
    const mark = STATE_MARKS[event.state] ?? escapeMrkdwn(event.state);
    const failure =
      event.state === 'error' && event.errorMsg
        ? ` ${escapeMrkdwn(truncate(event.errorMsg, ERROR_CHARS))}`
        : '';
    return `${escapeMrkdwn(event.name)} ${mark}${failure}${eventTime(event)}`;
  });
  const skipped = events.length > EVENTS_SHOWN ? '… → ' : '';
  return `Recent: ${skipped}${steps.join(' → ')}`;
}

/** When it finished, or when it was asked for while it runs; nothing when the API sent no date. */
function eventTime(event: MachineEvent): string {
  const at = Date.parse(event.dtFinished ?? event.dtCreated);
  if (!Number.isFinite(at)) return '';
  return ` ${slackDate(at, '{date_short_pretty} {time}', isoMinutes(at))}`;
}
