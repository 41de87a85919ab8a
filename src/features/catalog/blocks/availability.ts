// /ps availability: which machine types can be requested in which region right now. One section
// per region with a field per type reads as a two-column grid on a phone, where a wide table wraps.
import type { KnownBlock } from '@slack/types';
import {
  DEDICATED_GPU_MACHINE_TYPES,
  isDedicatedGpuMachineType,
  REGIONS,
} from '../../../paperspace/constants.js';
import { contextLine, header } from '../../../slack/block-kit/elements.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { escapeMrkdwn, LIMITS, message, mrkdwn, type SlackMessage } from '../../../slack/block-kit/text.js';

export interface AvailabilityResult {
  region: string;
  machineType: string;
  /** 'error' when the check itself failed, which is not the same as "not available". */
  available: boolean | 'error';
}

const MARK = { available: '✅', unavailable: '❌', notChecked: '—', error: '⚠️' } as const;

const AVAILABILITY_LEGEND = `${MARK.available} available · ${MARK.unavailable} not available now · ${MARK.notChecked} not offered or not checked · ${MARK.error} check failed`;

export function availabilityGrid(results: AvailabilityResult[]): SlackMessage {
  if (results.length === 0) {
    const text = 'No availability to show: no region and machine type were checked.';
    return plainMessage(text);
  }
  const regions = ordered(
    results.map((result) => result.region),
    REGIONS,
  );
  const types = ordered(
    results.map((result) => result.machineType),
    DEDICATED_GPU_MACHINE_TYPES,
  );
  // v1 reports on every type its templates offer, CPU ones too: "GPU" would then say too little.
  const kind = types.every(isDedicatedGpuMachineType) ? 'GPU' : 'machine';
  const lookup = new Map(
    results.map((result) => [`${result.region}\n${result.machineType}`, result.available]),
  );

  const grid: KnownBlock[] = [];
  for (const region of regions) {
    const cells = types.map((type) => `${mark(lookup.get(`${region}\n${type}`))} ${escapeMrkdwn(type)}`);
    for (let start = 0; start < cells.length; start += LIMITS.sectionFields) {
      grid.push({
        type: 'section',
        text: mrkdwn(start === 0 ? `*${escapeMrkdwn(region)}*` : `*${escapeMrkdwn(region)}* (continued)`),
        fields: cells
          .slice(start, start + LIMITS.sectionFields)
          .map((cell) => mrkdwn(cell, LIMITS.sectionField)),
      });
    }
  }
  // Three regions need three sections; the cap only guards against a caller passing hundreds.
  const blocks: KnownBlock[] = [
    header(kind === 'GPU' ? 'GPU availability' : 'Machine availability'),
    ...grid.slice(0, LIMITS.messageBlocks - 2),
    contextLine(AVAILABILITY_LEGEND),
  ];

  const available = results.filter((result) => result.available === true);
  const text =
    available.length === 0
      ? `No checked ${kind} type is available right now.`
      : `Available now: ${available.map((result) => `${result.machineType} in ${result.region}`).join(', ')}`;
  return message(blocks, escapeMrkdwn(text));
}

function mark(available: boolean | 'error' | undefined): string {
  if (available === undefined) return MARK.notChecked;
  if (available === 'error') return MARK.error;
  return available ? MARK.available : MARK.unavailable;
}

/** The known values in their canonical order, then any others in the order they first appear. */
function ordered(values: string[], known: readonly string[]): string[] {
  const present = new Set(values);
  return [
    ...known.filter((value) => present.has(value)),
    ...[...present].filter((value) => !known.includes(value)),
  ];
}
