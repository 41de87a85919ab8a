// The `app_home_opened` event: the Home tab is drawn afresh each time a person opens it.

import type { ListenerRouter } from '../../slack/router.js';
import { slackPerson } from '../../slack/slack-person.js';
import type { HomeDeps } from './home-deps.js';
import { publishHome } from './publish-home.js';

export function registerAppHomeOpened(router: ListenerRouter, deps: HomeDeps): void {
  router.event('app_home_opened', async ({ event, body, client }) => {
    // The same event fires for the Messages tab, which the bot does not draw.
    if (event.tab !== 'home') return;
    const person = slackPerson({
      userId: event.user,
      enterpriseId: body.enterprise_id,
      teamId: body.team_id,
    });
    await publishHome(client, deps, person);
  });
}
