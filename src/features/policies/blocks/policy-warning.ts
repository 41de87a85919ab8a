// The messages of a policy's enforcement: the owner's warning (Keep running 4 h more, Stop now), what
// happened at the stop, the administrator's request to approve a member's Keep running, and the
// administrator's Stop with my key when the owner's key could not stop the machine.
import type { KnownBlock } from '@slack/types';
import { button, section } from '../../../slack/block-kit/elements.js';
import { mention, message, nameMrkdwn, type SlackMessage, slackDate } from '../../../slack/block-kit/text.js';
import { ActionId } from '../../../slack/ids.js';
import { isLeaseBlock } from '../../machines/blocks/machine-card.js';
import type { Lease } from '../lease.js';
import { encodePolicyRef, type PolicyRef } from './policy-ref.js';
import { formatLimit, OWNERS_KEY_NOTICE } from './policy-words.js';

const POLICY_ACTIONS_BLOCK_ID = 'policy_actions';

export interface Warned {
  machine: { id: string; name: string };
  lease: Lease;
}

function refOf({ machine, lease }: Warned): PolicyRef {
  return { id: machine.id, name: machine.name, kind: lease.kind, stopAt: lease.stopAt };
}

/** Why the rule stops it, in words: "the team's off-hours" or "the team's 12 h run limit". */
export function ruleWords(lease: Pick<Lease, 'kind' | 'limitMs'>): string {
  return lease.kind === 'off_hours'
    ? "the team's off-hours"
    : `the team's ${formatLimit(lease.limitMs ?? 0)} run limit`;
}

function keepButtons(ref: PolicyRef): KnownBlock {
  return {
    type: 'actions',
    block_id: POLICY_ACTIONS_BLOCK_ID,
    elements: [
      button({
        actionId: ActionId.policyKeep,
        text: 'Keep running 4 h more',
        value: encodePolicyRef(ref),
        style: 'primary',
      }),
      button({
        actionId: ActionId.policyStopNow,
        text: 'Stop now',
        value: encodePolicyRef(ref),
        style: 'danger',
      }),
    ],
  };
}

export function warningMessage(warned: Warned): SlackMessage {
  const { machine, lease } = warned;
  const at = slackDate(lease.stopAt, '{time}');
  const text = `⏳ ${nameMrkdwn(machine.name)} will be stopped at ${at} by ${ruleWords(lease)} (set by ${mention(lease.setBy)}).`;
  return message(
    [section(`${text}\n${OWNERS_KEY_NOTICE}`), keepButtons(refOf(warned))],
    `${machine.name} will be stopped by a team policy`,
  );
}

/**
 * After a click or a stop, the warning keeps its words and loses its buttons to a line of what happened;
 * a machine card's lease line (its Extend) gives way to it the same way.
 */
export function withWarningDone(blocks: readonly KnownBlock[], line: string): KnownBlock[] {
  return blocks.map((block) =>
    block.block_id === POLICY_ACTIONS_BLOCK_ID || isLeaseBlock(block.block_id) ? section(line) : block,
  );
}

export function extensionRequestMessage(ref: PolicyRef, requester: string): SlackMessage {
  const text = `🙋 ${mention(requester)} asks to keep ${nameMrkdwn(ref.name)} running 4 h past its stop at ${slackDate(ref.stopAt, '{date_short_pretty} {time}')} (${ruleWords({ kind: ref.kind })}). Until you approve, it is stopped as planned.`;
  return message(
    [
      section(text),
      {
        type: 'actions',
        block_id: POLICY_ACTIONS_BLOCK_ID,
        elements: [
          button({
            actionId: ActionId.policyApproveExtension,
            text: 'Approve 4 h more',
            value: encodePolicyRef({ ...ref, requester }),
            style: 'primary',
          }),
        ],
      },
    ],
    `${ref.name}: a request to keep it running`,
  );
}

export function stopWithMyKeyMessage(warned: Warned, why: string): SlackMessage {
  const text = `⚠️ ${nameMrkdwn(warned.machine.name)} passed ${ruleWords(warned.lease)}, which you set, but its owner's key could not stop it: ${why} Stop it with your own key?`;
  return message(
    [
      section(text),
      {
        type: 'actions',
        block_id: POLICY_ACTIONS_BLOCK_ID,
        elements: [
          button({
            actionId: ActionId.policyStopWithMyKey,
            text: 'Stop with my key',
            value: encodePolicyRef(refOf(warned)),
            style: 'danger',
          }),
        ],
      },
    ],
    `${warned.machine.name} could not be stopped with its owner's key`,
  );
}
