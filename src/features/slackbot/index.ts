// Slackbot's MCP client as a second front door: the tools it calls (tool-calls.ts, served at /mcp by
// slack/mcp/) and the Confirm and Cancel that run a change it proposed.
import type { Feature } from '../feature.js';
import { registerProposalButtons } from './buttons/proposal-decision.js';
import { slackbotNeeds } from './slackbot-deps.js';

export const slackbotFeature = {
  needs: slackbotNeeds,
  listen(router, deps, door) {
    registerProposalButtons(router, deps, door);
  },
} as const satisfies Feature<typeof slackbotNeeds>;
