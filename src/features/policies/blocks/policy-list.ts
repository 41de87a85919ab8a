// `/ps policy`: the team's rules and exemptions, readable by everyone on the team.
import { escapeMrkdwn, mention, slackDate } from '../../../slack/block-kit/text.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import type { PolicyExemption, TeamPolicies } from '../../../store/team-policies.js';
import { describeOffHours, formatLimit, setByLine } from './policy-words.js';

export function policyListText(policies: TeamPolicies, exemptions: readonly PolicyExemption[]): string {
  const { max_run: maxRun, off_hours: offHours, idle } = policies;
  const lines = ["*Your team's policies*"];
  if (maxRun === undefined && offHours === undefined && idle === undefined) {
    lines.push('None: no machine is warned or stopped by a policy.');
  }
  if (maxRun !== undefined) {
    lines.push(
      `• Run limit: *${formatLimit(maxRun.ms)}* a run, warned 30 minutes before the stop (${setByLine(maxRun.setBy, maxRun.setAt)}).`,
    );
  }
  if (offHours !== undefined) {
    lines.push(
      `• Off-hours: *${escapeMrkdwn(describeOffHours(offHours))}*, running machines stopped when they begin (${setByLine(offHours.setBy, offHours.setAt)}).`,
    );
  }
  if (idle !== undefined) {
    lines.push(
      `• Idle timeout: *${idle.hours} h* with nobody logged in, then Paperspace shuts the machine down itself (${setByLine(idle.setBy, idle.setAt)}).`,
    );
  }
  for (const exemption of exemptions) {
    lines.push(
      `• Exempt: *${escapeMrkdwn(exemption.machineName)}* until ${slackDate(exemption.untilAt, '{date_short_pretty} {time}')} (by ${mention(exemption.setBy)}).`,
    );
  }
  lines.push(
    `A policy stops a machine with its owner's own Paperspace key. Slack workspace admins and owners who administer the team change them: \`${ps} help policy\`.`,
  );
  return lines.join('\n');
}
