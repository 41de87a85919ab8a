// The official MCP conformance suite against the bot's /mcp, as Slackbot's MCP client reaches it: the
// suite's unsigned requests go through a shim that signs them as Slack does and names the caller, so
// what is tested is the whole way in (request guard, replay guard, the SDK's transport, our tools).
// The suite needs Node 22 or later: on an older Node the file is skipped and says why; CI runs it
// under Node 24 (.ci/node24).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_PATH } from '../../src/slack/mcp/mcp-endpoint.js';
import {
  failedChecks,
  mcpConformanceSkipReason,
  requireConformanceNode,
  runServerScenario,
} from '../support/mcp-conformance.js';
import { type SlackSigningShim, startSlackSigningShim } from '../support/slack-signing-shim.js';
import { SIGNING_SECRET, TEAM_ID, USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

/** The server scenarios that fit a tools-only server (no resources, prompts, logging or sampling). */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list'];

describe.skipIf(mcpConformanceSkipReason !== undefined)(
  `the MCP conformance suite against /mcp${mcpConformanceSkipReason === undefined ? '' : ` (skipped: ${mcpConformanceSkipReason})`}`,
  () => {
    const bot = useTestBot({ linked: ['ada'] });
    let shim: SlackSigningShim;

    beforeAll(async () => {
      requireConformanceNode();
      shim = await startSlackSigningShim({
        target: bot.url,
        signingSecret: SIGNING_SECRET,
        identity: { user_id: USERS.ada.slackId, team_id: TEAM_ID },
      });
    });
    afterAll(async () => {
      await shim?.close();
    });

    it.each(SCENARIOS)('passes every check of %s', { timeout: 60_000 }, async (scenario) => {
      const run = await runServerScenario(`${shim.url}${MCP_PATH}`, scenario);
      // A scenario that wrote no checks did not run at all; that is no pass.
      expect(run.checks.length, run.output).toBeGreaterThan(0);
      expect(failedChecks(run), run.output).toEqual([]);
      expect(run.exitCode, run.output).toBe(0);
      expect(shim.forwarded()).toBeGreaterThan(0);
    });
  },
);
