// docs/slackbot.md tells people and admins what Slackbot can do with the bot; its table of tools and its
// limits are read from the code here, so a tool added, renamed or turned from a read into a change
// cannot leave the page saying otherwise.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands } from '../../../src/features/catalogue.js';
import { CALLS_PER_MINUTE } from '../../../src/features/slackbot/call-limits.js';
import { PROPOSAL_TTL_MS } from '../../../src/features/slackbot/proposals.js';
import { toolOperations } from '../../../src/slack/mcp/operation-tools.js';

const page = readFileSync(new URL('../../../docs/slackbot.md', import.meta.url), 'utf8');

/** The rows of the tools table: tool, title, kind, /ps command (the description is the page's own words). */
function documentedTools(): string[][] {
  return page
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .split('|')
        .slice(1, 5)
        .map((cell) => cell.trim().replace(/^`|`$/g, '')),
    );
}

describe('docs/slackbot.md', () => {
  it('lists every tool the bot offers Slackbot, with its title, read or change, and /ps command, in order', () => {
    const offered = toolOperations(commands.commands).map((operation) => [
      operation.tool.name,
      operation.tool.title,
      operation.kind,
      operation.name,
    ]);
    expect(documentedTools()).toEqual(offered);
  });

  it('states the limits the code keeps: calls a minute per person, and the minutes to confirm a change', () => {
    expect(page).toContain(`${CALLS_PER_MINUTE} calls a minute per person`);
    expect(page).toContain(`within ${PROPOSAL_TTL_MS / 60_000} minutes`);
  });

  it('does not offer destroy, which stays with /ps', () => {
    expect(toolOperations(commands.commands).map((operation) => operation.name)).not.toContain('destroy');
    expect(page).toContain('Destroy is not a tool');
  });
});
