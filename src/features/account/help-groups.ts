// The short help (`/ps help`): every command once, grouped by what people come to do. Each command's
// own help (parameters, examples, what happens) is declared with its operation in its feature.
import { SLASH_COMMAND as ps } from '../../slack/ids.js';

export interface HelpGroup {
  title: string;
  /** One line each: a command or two, and what they are for. */
  lines: readonly string[];
}

export const HELP_GROUPS: readonly HelpGroup[] = [
  {
    title: 'Machines',
    lines: [
      `\`${ps} list\` your machines (\`state=ready\`, \`region=CA1\`) · \`${ps} show <machine>\` its card`,
      `\`${ps} start|stop|restart <machine>\` and hear here when it is done`,
      `\`${ps} create\` a machine (a form) · \`${ps} update\`, \`${ps} destroy\`, \`${ps} access\` one you have`,
      `\`${ps} claim <machine>\` one nobody owns yet · \`${ps} assign <machine> @person\` (administrators)`,
    ],
  },
  {
    title: 'Waiting and reminders',
    lines: [
      `\`${ps} wait <machine> ready\` tells you when it gets there`,
      `\`${ps} remind 7pm\` shows you what still runs every weekday · \`${ps} reminders\`, \`${ps} remind off\``,
      `\`${ps} alerts 6h\` messages you when a machine runs that long`,
    ],
  },
  {
    title: 'Sharing',
    lines: [`\`${ps} share <machine> [@person]\` in this channel for 4 hours · \`${ps} shares\` yours`],
  },
  {
    title: 'Cost',
    lines: [
      `\`${ps} spend\` this month so far · \`${ps} usage <machine>\` one machine's hours and cost`,
      `\`${ps} digest #channel daily 09:00\` the team's machines and spend in a channel`,
      `\`${ps} budget\` the team's monthly budgets · \`${ps} budget team $2000\`, \`${ps} budget @sam $300\` (administrators)`,
    ],
  },
  {
    title: 'Team',
    lines: [
      `\`${ps} requests\` waiting for you or by you · \`${ps} approvals #channel\` where they go`,
      `\`${ps} policy\` the team's run limit and off-hours · \`${ps} policy max-run 12h\` (administrators)`,
      `\`${ps} users\`, \`${ps} templates\`, \`${ps} networks\`, \`${ps} availability\` of types by region`,
      `\`${ps} scripts\`, \`${ps} script create\` startup scripts · \`${ps} drives\`, \`${ps} drive create\` shared drives`,
    ],
  },
  {
    title: 'Your account',
    lines: [
      `\`${ps} login\` links your Paperspace key · \`${ps} whoami\` · \`${ps} logout\` · \`${ps} steps on\` for Workflow Builder`,
    ],
  },
];
