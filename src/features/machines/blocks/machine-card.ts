// The machine card: what a machine is and what can be done with it, as Block Kit. Used by /ps show,
// lifecycle replies (updated in place as the state changes), lists and App Home (compact).
import type { ActionsBlock, Button, KnownBlock, Overflow } from '@slack/types';
import { type HourlyRate, listedHourlyRate, listPriceRate } from '../../../domain/hourly-rate.js';
import { isStoppable } from '../../../domain/machine-states.js';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import { formatGiB, formatKnownHourlyRate, MISSING, storageBar } from '../../../slack/block-kit/format.js';
import type { PageValue } from '../../../slack/block-kit/paging.js';
import {
  escapeMrkdwn,
  isoMinutes,
  LIMITS,
  message,
  mrkdwn,
  nameMrkdwn,
  option,
  plainText,
  plural,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';
import { ActionId, MachineOverflowOption } from '../../../slack/ids.js';
import type { MachineButtons } from '../machine-permissions.js';
import { encodeMachineRef, machineActionsBlockId } from './machine-ref.js';
import { stateLabel, stateMrkdwn } from './machine-state.js';
import { encodePowerOffer } from './request-values.js';

export interface MachineCardOptions {
  /** One line of details instead of fields: for lists and App Home. */
  compact?: boolean;
  /** State changes to show, oldest first; `at` is epoch milliseconds. */
  timeline?: { state: string; at: number }[];
  /** A mrkdwn line such as "Restarting… requested by <@U1>"; escape user-controlled parts yourself. */
  notice?: string;
  /**
   * The buttons the viewer can use (machine-permissions.ts), for cards drawn for one person (lists,
   * App Home, /ps show); all of them by default. Without power the card offers "Ask the owner" instead
   * of Start or Stop; without manage it has no Settings, Access and Destroy.
   */
  buttons?: MachineButtons;
  /** The list page this card is a row of (machine-list.ts), so a click can redraw that page. */
  listPage?: PageValue;
  /**
   * The machine's hourly rate when the caller read it (the contract's list carries none, only its
   * utilization does). Without it a card shows the rate its listing carries (v1), else the type's
   * published list price, said to be one: a card never costs a Paperspace call of its own.
   */
  hourlyRate?: HourlyRate;
  /** When the team's policies stop this running machine, with its Extend button (policies/card-leases.ts). */
  lease?: CardLease;
}

/**
 * The lease line of a running team machine: "⏱ 12 h run limit: stops today at 21:40" (mrkdwn, with
 * its date token), and the value of its Extend button, which the policies feature's Keep running answers.
 */
export interface CardLease {
  text: string;
  extendValue: string;
}

/**
 * The lease block's id: unique per machine (App Home shows many cards in one view); the policies
 * feature replaces the block with what an Extend click did.
 */
const leaseBlockId = (machineId: string) => `${LEASE_BLOCK_PREFIX}${machineId}`;

export const isLeaseBlock = (blockId: string | undefined) => blockId?.startsWith(LEASE_BLOCK_PREFIX) === true;

const LEASE_BLOCK_PREFIX = 'machine_lease:';

/** Timelines longer than this show their most recent entries: the line is for "what just happened". */
const TIMELINE_ENTRIES = 6;

export function machineCard(machine: Machine, opts: MachineCardOptions = {}): KnownBlock[] {
  const owner = opts.buttons?.owner;
  const unowned = opts.buttons?.unowned === true;
  const blocks: KnownBlock[] = opts.compact
    ? [compactSummary(machine, owner, unowned, opts.hourlyRate)]
    : detailedSummary(machine, owner, opts.hourlyRate);
  if (opts.notice) blocks.push(contextLine(opts.notice));
  if (opts.timeline && opts.timeline.length > 0) blocks.push(contextLine(timelineText(opts.timeline)));
  if (opts.lease) blocks.push(leaseBlock(machine, opts.lease));
  blocks.push(machineActions(machine, opts.buttons ?? { power: true, manage: true }, opts.listPage));
  const footer = footerText(machine);
  if (!opts.compact && footer !== '') blocks.push(contextLine(footer));
  return blocks;
}

/** A machine card as a whole message, with the notification fallback. */
export function machineCardMessage(machine: Machine, opts: MachineCardOptions = {}): SlackMessage {
  return message(machineCard(machine, opts), machineSummaryText(machine));
}

/** `gpu-1: 🟢 Ready` (escaped): the fallback text of a message about one machine. */
function machineSummaryText(machine: Pick<Machine, 'name' | 'state'>): string {
  return `${escapeMrkdwn(machine.name)}: ${stateMrkdwn(machine.state)}`;
}

/**
 * The machine's price an hour: the rate given or listed, else the type's list price (said to be one);
 * undefined when none is known.
 */
function rateText(machine: Machine, given: HourlyRate | undefined): string | undefined {
  const listed = listedHourlyRate(machine);
  const rate =
    given ??
    (listed === undefined ? listPriceRate(machine.machineType) : { dollars: listed, basis: 'account' });
  return rate === undefined ? undefined : formatKnownHourlyRate(rate);
}

/**
 * The Billing field: the price an hour, with the contract's plan name ("C4 hourly") beside it, which
 * says how the machine is billed but not what it costs.
 */
function billingText(machine: Machine, given: HourlyRate | undefined): string {
  const price = rateText(machine, given);
  if (price === undefined) return machine.usageRate;
  return listedHourlyRate(machine) === undefined && PLAN_NAME.test(machine.usageRate)
    ? `${price} · ${machine.usageRate}`
    : price;
}

/** The contract's usageRate: a plan, such as `C4 hourly` or `C4 monthly`. */
const PLAN_NAME = /\b(hourly|monthly)$/i;

/** `owner`: whose the machine is (mrkdwn), on a card drawn for someone else. */
function detailedSummary(
  machine: Machine,
  owner: string | undefined,
  rate: HourlyRate | undefined,
): KnownBlock[] {
  const headline = [stateMrkdwn(machine.state), machine.machineType, machine.region]
    .filter((part): part is string => Boolean(part))
    .map((part, index) => (index === 0 ? `*${part}*` : escapeMrkdwn(part)))
    .join(' · ');
  const fields: [string, string][] = [
    ['OS', machine.os ?? MISSING],
    ['CPUs', String(machine.cpus)],
    ['RAM', formatGiB(machine.ram)],
    ['GPU', machine.gpu ?? MISSING],
    ['Storage', storageBar(machine.storageUsed, machine.storageTotal)],
    ['Billing', billingText(machine, rate)],
    ['Public IP', machine.publicIpAddress ?? MISSING],
    ['Private IP', machine.privateIpAddress ?? MISSING],
  ];
  return [
    { type: 'header', text: plainText(machine.name, LIMITS.headerText) },
    {
      type: 'section',
      text: mrkdwn(headline),
      fields: [
        ...(owner === undefined ? [] : [mrkdwn(`*Owner*\n${owner}`, LIMITS.sectionField)]),
        ...fields.map(([label, value]) => mrkdwn(`*${label}*\n${escapeMrkdwn(value)}`, LIMITS.sectionField)),
      ],
    },
  ];
}

/** `owner`: whose the machine is (mrkdwn), or "no owner yet" when `unowned`. */
function compactSummary(
  machine: Machine,
  owner: string | undefined,
  unowned: boolean,
  rate: HourlyRate | undefined,
): KnownBlock {
  const { emoji, words } = stateLabel(machine.state);
  const details = [
    machine.machineType,
    rateText(machine, rate),
    machine.region,
    machine.os,
    plural(machine.cpus, 'CPU'),
    machine.ram === null ? null : `${formatGiB(machine.ram)} RAM`,
    machine.gpu,
    machine.storageTotal === null ? null : `disk ${storageBar(machine.storageUsed, machine.storageTotal)}`,
    machine.publicIpAddress,
  ].filter((part): part is string => Boolean(part));
  const ownedBy = owner === undefined ? '' : unowned ? ` · ${owner}` : ` · owned by ${owner}`;
  const line1 = `${emoji} ${nameMrkdwn(machine.name)} · ${escapeMrkdwn(words)}${ownedBy}`;
  const line2 = details.map(escapeMrkdwn).join(' · ');
  return section(`${line1}\n${line2}`);
}

function leaseBlock(machine: Pick<Machine, 'id' | 'name'>, lease: CardLease): KnownBlock {
  return {
    ...section(lease.text),
    block_id: leaseBlockId(machine.id),
    accessory: button({
      actionId: ActionId.policyKeep,
      text: 'Extend',
      value: lease.extendValue,
      accessibilityLabel: `Keep ${machine.name} running 4 h more`,
    }),
  };
}

function timelineText(timeline: { state: string; at: number }[]): string {
  const recent = timeline.slice(-TIMELINE_ENTRIES);
  const steps = recent.map(
    ({ state, at }) => `${stateMrkdwn(state)} ${slackDate(at, '{time}', timeOnly(at))}`,
  );
  const skipped = timeline.length - recent.length;
  return (skipped > 0 ? '… → ' : '') + steps.join(' → ');
}

/** `18:30 UTC`, the fallback of a time-of-day date token. */
function timeOnly(at: number): string {
  return isoMinutes(at).slice(11);
}

function footerText(machine: Machine): string {
  // No Paperspace id: a person names a machine by its name (`/ps whoami` and the console show ids).
  const parts: string[] = [];
  const created = Date.parse(machine.dtCreated);
  if (Number.isFinite(created)) parts.push(`created ${slackDate(created, '{date_short_pretty}')}`);
  if (machine.updatesPending) parts.push('⚠️ OS updates pending: the next start or stop may take longer');
  return parts.join(' · ');
}

/** Start, or Stop and Restart, as the state allows. */
function powerButtons(machine: Machine): Button[] {
  const value = encodeMachineRef(machine);
  const name = machine.name;
  const elements: Button[] = [];
  if (machine.state === 'off') {
    elements.push(
      button({
        actionId: ActionId.machineStart,
        text: 'Start',
        value,
        style: 'primary',
        accessibilityLabel: `Start ${name}`,
      }),
    );
  }
  if (isStoppable(machine.state)) {
    elements.push(stopButton(machine, ActionId.machineStop));
    elements.push({
      ...button({
        actionId: ActionId.machineRestart,
        text: 'Restart',
        value,
        accessibilityLabel: `Restart ${name}`,
      }),
      confirm: {
        title: plainText(`Restart ${name}?`, LIMITS.confirmTitle),
        text: plainText('The machine stops and starts again; anyone logged in is disconnected.'),
        confirm: plainText('Restart', LIMITS.confirmButton),
        deny: plainText('Cancel', LIMITS.confirmButton),
      },
    });
  }
  return elements;
}

/**
 * Someone else's machine: one button that asks its owner (the approvals feature's request) to start
 * an off machine or stop a running one, in place of the power buttons only the owner can use. It says
 * what it asks, and its confirmation whom (the owner when the card can name them, the team's
 * administrators for a machine nobody owns) and what happens next, before anything is sent.
 */
function askOwnerButtons(machine: Machine, allowed: MachineButtons): Button[] {
  const verb = machine.state === 'off' ? 'start' : isStoppable(machine.state) ? 'stop' : undefined;
  if (verb === undefined) return [];
  // Nobody owns it yet: the team's administrators answer for it.
  const whom = allowed.unowned ? 'the team’s administrators' : (allowed.owner ?? 'the owner');
  return [
    {
      ...button({
        actionId: ActionId.requestPower,
        text: `Ask the owner to ${verb}`,
        value: encodePowerOffer({ id: machine.id, name: machine.name, verb }),
        accessibilityLabel: `Ask the owner of ${machine.name} to ${verb} it`,
      }),
      confirm: {
        title: plainText(`Ask to ${verb} ${machine.name}?`, LIMITS.confirmTitle),
        text: mrkdwn(
          `Ask ${whom} to ${verb} ${nameMrkdwn(machine.name)}? They get a direct message with a button to ` +
            `${verb} it, and you are told here whom it went to; you hear from me when they decide.`,
          LIMITS.confirmText,
        ),
        confirm: plainText('Send request', LIMITS.confirmButton),
        deny: plainText('Cancel', LIMITS.confirmButton),
      },
    },
  ];
}

/**
 * "This is mine", on a team machine with no owner yet, for a member: the clicker becomes its owner
 * (machines/machine-ownership.ts). Spend rows and alerts about such machines offer it too.
 */
export function claimButton(machine: Pick<Machine, 'id' | 'name'>): Button {
  return {
    ...button({
      actionId: ActionId.machineClaim,
      text: 'This is mine',
      value: encodeMachineRef(machine),
      accessibilityLabel: `Claim ${machine.name} as your machine`,
    }),
    confirm: {
      title: plainText(`Claim ${machine.name}?`, LIMITS.confirmTitle),
      text: mrkdwn(
        `${nameMrkdwn(machine.name)} becomes yours: its forgotten-machine alerts come to you, and its cost counts ` +
          'in your spend. The team’s administrators can assign it to someone else.',
        LIMITS.confirmText,
      ),
      confirm: plainText('It is mine', LIMITS.confirmButton),
      deny: plainText('Cancel', LIMITS.confirmButton),
    },
  };
}

/** Buttons that fit the state, then Share, Usage and the overflow (Settings, Access, Destroy, Assign). */
function machineActions(machine: Machine, allowed: MachineButtons, listPage?: PageValue): ActionsBlock {
  const value = encodeMachineRef(machine);
  const name = machine.name;
  const elements: (Button | Overflow)[] = allowed.power
    ? powerButtons(machine)
    : askOwnerButtons(machine, allowed);
  if (allowed.claim) elements.push(claimButton(machine));
  elements.push(
    button({ actionId: ActionId.machineShare, text: 'Share', value, accessibilityLabel: `Share ${name}` }),
  );
  elements.push(
    button({ actionId: ActionId.machineUsage, text: 'Usage', value, accessibilityLabel: `Usage of ${name}` }),
  );
  const menu = [
    ...(allowed.manage
      ? [
          option('⚙️ Settings', MachineOverflowOption.settings),
          option('👥 Access', MachineOverflowOption.access),
          option('🗑️ Destroy', MachineOverflowOption.destroy),
        ]
      : []),
    ...(allowed.assign ? [option('🙋 Assign to…', MachineOverflowOption.assign)] : []),
  ];
  if (menu.length > 0)
    elements.push({ type: 'overflow', action_id: ActionId.machineOverflow, options: menu });
  return { type: 'actions', block_id: machineActionsBlockId(machine.id, listPage), elements };
}

/** A Stop button that asks first: stopping disconnects whoever is logged in. Cards and reminders share it. */
export function stopButton(machine: Pick<Machine, 'id' | 'name'>, actionId: string): Button {
  return {
    ...button({
      actionId,
      text: 'Stop',
      value: encodeMachineRef(machine),
      style: 'danger',
      accessibilityLabel: `Stop ${machine.name}`,
    }),
    confirm: {
      title: plainText(`Stop ${machine.name}?`, LIMITS.confirmTitle),
      text: plainText('Anyone logged in is disconnected at once. Disks are kept.', LIMITS.confirmText),
      confirm: plainText('Stop', LIMITS.confirmButton),
      deny: plainText('Cancel', LIMITS.confirmButton),
      style: 'danger',
    },
  };
}
