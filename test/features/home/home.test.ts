import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from '../account/helpers.js';
import { cardValue, settle } from '../machines/machine-kit.js';

const bot = useTestBot({ linked: ['ada', 'maya'] });

async function openHome(user: string, tab: 'home' | 'messages' = 'home') {
  const response = await bot.send(bot.requests.event({ type: 'app_home_opened', user, tab }));
  expect(response.status).toBe(200);
}

describe('App Home', () => {
  it('shows the linked key and account with the machines as compact cards', async () => {
    await openHome(USERS.ada.slackId);
    const publish = await bot.slack.waitFor('views.publish');
    expect(publish.args.user_id).toBe(USERS.ada.slackId);
    const view = textOf(publish.args.view);
    expect(view).toContain('"type":"home"');
    expect(view).toContain('Linked to *ada.park@example.com* with key `••••dual`');
    expect(view).toContain('Your machines (3)');
    expect(view).toContain('ada-workstation');
    expect(view).toContain(ActionId.machineStart);
    expect(view).not.toContain(USERS.ada.apiKey);
  });

  it("counts only the viewer's machines as theirs, and lists the team's with Ask the owner instead of power buttons", async () => {
    await openHome(USERS.maya.slackId);
    const publish = await bot.slack.waitFor('views.publish');
    const view = publish.args.view as { blocks: { block_id?: string; elements?: { action_id: string }[] }[] };
    const text = textOf(view);
    expect(text).toContain('Your machines (2)');
    expect(text).toContain('Team machines (3)');
    const actionsOf = (machineId: string) =>
      view.blocks
        .find((block) => block.block_id === `machine_actions:${machineId}`)
        ?.elements?.map((element) => element.action_id);
    expect(actionsOf('psorb002')).toContain(ActionId.machineStart);
    expect(actionsOf('psorb004')).toContain(ActionId.requestPower);
    expect(actionsOf('psorb004')).not.toContain(ActionId.machineStart);
    expect(actionsOf('psorb003')).not.toContain(ActionId.machineStop);
  });

  it('offers Log in to someone who linked no key', async () => {
    await openHome(USERS.sam.slackId);
    const publish = await bot.slack.waitFor('views.publish');
    expect(publish.args.user_id).toBe(USERS.sam.slackId);
    const view = textOf(publish.args.view);
    expect(view).toContain(ActionId.login);
    expect(view).not.toContain('Your machines');
  });

  it('shows a Paperspace failure in the view instead of leaving it blank', async () => {
    bot.emulator.state.failNextRequests({
      count: 1,
      status: 403,
      path: '/machines/getMachines',
      message: 'Account suspended',
    });
    await openHome(USERS.ada.slackId);
    const publish = await bot.slack.waitFor('views.publish');
    const view = textOf(publish.args.view);
    expect(view).toContain('Linked to *ada.park@example.com*');
    expect(view).toContain('Account suspended');
  });

  it('draws nothing for the Messages tab', async () => {
    await openHome(USERS.ada.slackId, 'messages');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bot.slack.calls('views.publish')).toHaveLength(0);
  });

  it("offers Settings, Access and Destroy on a teammate's machine to an administrator, never to a member", async () => {
    const actionsIn = async (user: string) => {
      bot.slack.reset();
      await openHome(user);
      const publish = await bot.slack.waitFor('views.publish');
      const view = publish.args.view as {
        blocks: { block_id?: string; elements?: { action_id: string }[] }[];
      };
      return (machineId: string) =>
        view.blocks
          .find((block) => block.block_id === `machine_actions:${machineId}`)
          ?.elements?.map((element) => element.action_id);
    };
    await bot.link('sam');
    const samSees = await actionsIn(USERS.sam.slackId);
    expect(samSees('psorb003')).toContain(ActionId.machineOverflow);
    expect(samSees('psorb001')).toContain(ActionId.requestPower);
    expect(samSees('psorb001')).not.toContain(ActionId.machineOverflow);

    // With her access token Paperspace shows Maya administers the team: she may change Sam's machines.
    await bot.link('maya', { withAccessToken: true });
    const mayaSees = await actionsIn(USERS.maya.slackId);
    expect(mayaSees('psorb003')).toContain(ActionId.machineOverflow);
    expect(mayaSees('psorb003')).not.toContain(ActionId.machineStop);
  });
});

describe('buttons clicked on App Home answer on the Home', () => {
  const clickOnHome = (actionId: string, machineId: string, name: string, user = USERS.ada.slackId) =>
    bot.send(
      bot.requests.blockAction({
        actionId,
        value: cardValue(machineId, name),
        userId: user,
        view: { type: 'home' },
      }),
    );

  it('Stop draws the Home again with the machine stopping, posts no card in the DM and never asks to be invited', async () => {
    const running = bot.emulator.state.machine('psada001');
    expect(running?.state).toBe('ready');
    await clickOnHome(ActionId.machineStop, 'psada001', running?.name ?? '');
    const publish = await bot.slack.waitFor(
      (call) => call.method === 'views.publish' && textOf(call.args.view).includes('Stopping'),
    );
    expect(publish.args.user_id).toBe(USERS.ada.slackId);
    await settle();
    const posted = bot.slack.calls('chat.postMessage').map((call) => textOf(call.args));
    expect(posted.filter((text) => text.includes('requested by'))).toEqual([]);
    expect(
      [...posted, ...bot.slack.calls('chat.postEphemeral').map((call) => textOf(call.args))].join('\n'),
    ).not.toMatch(/cannot post in this conversation|\/invite/);
  });

  it('Usage opens a modal over the Home instead of a silent note in the Messages tab', async () => {
    await clickOnHome(ActionId.machineUsage, 'psada001', 'ada-workstation');
    const opened = await bot.slack.waitFor('views.open');
    expect(textOf(opened.args.view)).toContain('ada-workstation');
    expect(textOf(opened.args.view)).toMatch(/Compute/i);
    await settle();
    expect(bot.slack.calls('chat.postMessage')).toEqual([]);
  });
});
