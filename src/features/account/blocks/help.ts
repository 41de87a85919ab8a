// /ps help: the short help, grouped by what a person wants to do, and one command (or a group such as
// `script`) in detail: usage, parameters, examples and what happens. The words are declared with each
// command's operation, in its feature, and the groups in help-groups.ts; this only lays them out.
import type { KnownBlock } from '@slack/types';
import { contextLine, header, section } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, message, type SlackMessage } from '../../../slack/block-kit/text.js';
import type { CommandSpec } from '../../../slack/command-language/command-definition.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { HELP_GROUPS } from '../help-groups.js';

export function shortHelpMessage(): SlackMessage {
  const title = `${SLASH_COMMAND}: Paperspace machines from Slack`;
  const groups = HELP_GROUPS.map(
    (group) => `*${escapeMrkdwn(group.title)}*\n${group.lines.map(escapeMrkdwn).join('\n')}`,
  );
  const blocks: KnownBlock[] = [
    header(title),
    section(groups.join('\n')),
    contextLine(
      `\`${SLASH_COMMAND} help &lt;command&gt;\` explains one: its parameters, examples and what happens.`,
    ),
  ];
  return message(blocks, `${title}. ${HELP_GROUPS.map((group) => group.title).join(', ')}.`);
}

/** The commands a help topic named, each with its parameters, examples and what happens. */
export function commandHelpMessage(specs: readonly CommandSpec[]): SlackMessage {
  const blocks = specs.flatMap((spec): KnownBlock[] => {
    const { help } = spec;
    const lines = [
      `*\`${escapeMrkdwn(spec.usage)}\`*`,
      escapeMrkdwn(spec.summary),
      help.parameters.length === 0
        ? ''
        : `*Parameters*\n${help.parameters.map((line) => `• ${escapeMrkdwn(line)}`).join('\n')}`,
      `*Examples*\n${help.examples.map((example) => `\`${escapeMrkdwn(example)}\``).join('\n')}`,
      `*What happens*\n${escapeMrkdwn(help.effect)}`,
    ];
    return [section(lines.filter((line) => line !== '').join('\n'))];
  });
  const title = `${SLASH_COMMAND} ${specs.map((spec) => spec.name).join(', ')}`;
  return message([header(`${SLASH_COMMAND} help`), ...blocks], `${title}: ${specs[0]?.summary ?? ''}`);
}
