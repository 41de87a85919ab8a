// Element constructors more than one builder needs, sized to Block Kit limits.
import type { Button, ConfirmationDialog, ContextBlock, HeaderBlock, SectionBlock } from '@slack/types';
import { LIMITS, mrkdwn, plainText, truncate } from './text.js';

export function button(options: {
  actionId: string;
  text: string;
  value?: string;
  style?: 'primary' | 'danger';
  /** What a screen reader says, e.g. "Stop gpu-1" where the visible text is only "Stop". */
  accessibilityLabel?: string;
  /** A dialog Slack shows before sending the click, for what cannot be undone. */
  confirm?: ConfirmDialog;
}): Button {
  if (options.value !== undefined && options.value.length > LIMITS.buttonValue) {
    throw new RangeError(
      `Button value is ${options.value.length} characters; Slack allows ${LIMITS.buttonValue}`,
    );
  }
  const built: Button = {
    type: 'button',
    action_id: options.actionId,
    text: plainText(options.text, LIMITS.buttonText),
  };
  if (options.value !== undefined) built.value = options.value;
  if (options.style) built.style = options.style;
  if (options.accessibilityLabel) {
    built.accessibility_label = truncate(options.accessibilityLabel, LIMITS.buttonText);
  }
  if (options.confirm) built.confirm = confirmationDialog(options.confirm);
  return built;
}

export interface ConfirmDialog {
  title: string;
  /** mrkdwn, already escaped. */
  text: string;
  confirm: string;
  deny?: string;
  /** `danger` paints the confirm button red: for deletions. */
  danger?: boolean;
}

function confirmationDialog(dialog: ConfirmDialog): ConfirmationDialog {
  return {
    title: plainText(dialog.title, LIMITS.confirmTitle),
    text: mrkdwn(dialog.text, LIMITS.confirmText),
    confirm: plainText(dialog.confirm, LIMITS.confirmButton),
    deny: plainText(dialog.deny ?? 'Cancel', LIMITS.confirmButton),
    ...(dialog.danger ? { style: 'danger' as const } : {}),
  };
}

/** A section of mrkdwn alone, the body of most messages. `text` is mrkdwn, already escaped. */
export function section(text: string): SectionBlock {
  return { type: 'section', text: mrkdwn(text) };
}

/** A one-element context block: the small grey line under a card. `text` is mrkdwn, already escaped. */
export function contextLine(text: string): ContextBlock {
  return { type: 'context', elements: [mrkdwn(text)] };
}

/** A message's or a list's title, in plain text, cut to the header's limit. */
export function header(text: string, blockId?: string): HeaderBlock {
  return {
    type: 'header',
    ...(blockId === undefined ? {} : { block_id: blockId }),
    text: plainText(text, LIMITS.headerText),
  };
}
