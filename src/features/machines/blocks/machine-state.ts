// How a machine state reads in Slack: an emoji that scans in a long list and words a person says.
import type { MachineState } from '../../../paperspace/constants.js';
import { escapeMrkdwn } from '../../../slack/block-kit/text.js';

const STATE_LABELS: Record<MachineState, { emoji: string; words: string }> = {
  off: { emoji: '⚫', words: 'Off' },
  starting: { emoji: '🟡', words: 'Starting' },
  restarting: { emoji: '🟡', words: 'Restarting' },
  provisioning: { emoji: '🟡', words: 'Provisioning' },
  upgrading: { emoji: '🟡', words: 'Upgrading' },
  // Services run but the remote-access agent is not up yet: usable over SSH, not for streaming.
  serviceready: { emoji: '🟠', words: 'Service ready' },
  ready: { emoji: '🟢', words: 'Ready' },
  stopping: { emoji: '🟤', words: 'Stopping' },
};

function isKnownState(state: string): state is MachineState {
  return Object.hasOwn(STATE_LABELS, state);
}

/** The emoji and words for a state; a state the contract does not name is shown as sent, with ❔. */
export function stateLabel(state: string): { emoji: string; words: string } {
  return isKnownState(state) ? STATE_LABELS[state] : { emoji: '❔', words: state };
}

/** `🟢 Ready` as escaped mrkdwn (an unknown state comes from the API and is escaped like any string). */
export function stateMrkdwn(state: string): string {
  const { emoji, words } = stateLabel(state);
  return `${emoji} ${escapeMrkdwn(words)}`;
}
