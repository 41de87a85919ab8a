// A console link to a machine posted in a conversation becomes a compact machine card (name, state,
// type, region, rate, its owner, Start/Stop), read with the key of the person who posted it: what it
// shows is what their key may see, and its buttons are the ones the owner rule gives them
// (machine-permissions.ts), so a machine that is not theirs names its owner and offers "Ask the owner"
// instead of power buttons they could not use. Someone without a linked key gets no unfurl, and neither
// does a machine their key cannot read: Slack then shows the link as it is. The buttons act with the
// key of whoever clicks them, judged for that person, as on every card.
//
// What a message costs the poster's key is bounded: the first few machines it links (console-links.ts),
// each read with one request however many links name it (a listing by id, which on v1 carries the rate
// and no events), and the rates read once per machine type of those machines (none on v1).
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { type HourlyRate, hourlyRatesByType } from '../../domain/hourly-rate.js';
import { describeError } from '../../errors/describe-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import { slackPerson } from '../../slack/slack-person.js';
import { machineCard } from '../machines/blocks/machine-card.js';
import { type ViewerButtons, viewerButtons } from '../machines/machine-permissions.js';
import { consoleMachineLinks } from './console-links.js';
import type { UnfurlsDeps } from './unfurls-deps.js';

type LinkSharedArgs = SlackEventMiddlewareArgs<'link_shared'> & AllMiddlewareArgs;

/** The machine behind a link, read with one request; undefined when the key cannot see it. */
async function readMachine(client: PaperspaceClient, machineId: string): Promise<Machine | undefined> {
  const [machine] = await client.machines.list({ machineId });
  return machine?.id === machineId ? machine : undefined;
}

function cardOf(
  machine: Machine,
  buttonsOf: Awaited<ReturnType<ViewerButtons>>,
  hourlyRate: HourlyRate | undefined,
) {
  const { power, owner, unowned } = buttonsOf(machine);
  return {
    blocks: machineCard(machine, {
      compact: true,
      ...(hourlyRate ? { hourlyRate } : {}),
      // Settings, Access, Destroy, claiming and assigning are a person's own business, not a channel's.
      buttons: {
        power,
        manage: false,
        ...(owner === undefined ? {} : { owner }),
        ...(unowned ? { unowned } : {}),
      },
    }),
  };
}

export function linkSharedHandler(deps: UnfurlsDeps) {
  return async ({ event, body, client }: LinkSharedArgs): Promise<void> => {
    // Each machine read once, however many links name it, and only the first few machines.
    const links = consoleMachineLinks(event.links);
    if (links.length === 0) return;
    const poster = slackPerson({
      userId: event.user,
      enterpriseId: body.enterprise_id,
      teamId: body.team_id,
    });
    const linked = await deps.clients.linkedClient(poster);
    if (linked === undefined) return;
    // The poster's rule, started before the first machine is read so a role it needs is read beside it
    // (machine-permissions.ts), and made once for the message's machines.
    const buttonsFor = viewerButtons(deps, { user: poster, ...linked });
    const read = await Promise.all(
      links.map(async (link) => {
        try {
          return { ...link, machine: await readMachine(linked.client, link.machineId) };
        } catch (error) {
          deps.logger.info(
            { machineId: link.machineId, error: describeError(error) },
            'no unfurl for a console link',
          );
          return { ...link, machine: undefined };
        }
      }),
    );
    const shown = read.flatMap((link) =>
      link.machine === undefined ? [] : [{ ...link, machine: link.machine }],
    );
    // The rate is a nicety: a type whose rate cannot be read shows its list price, said to be one.
    const rates = await hourlyRatesByType(
      linked.client,
      shown.map((link) => link.machine),
      deps.now(),
    );
    const buttonsOf = await buttonsFor(shown.map((link) => link.machine));
    const unfurls: Record<string, { blocks: ReturnType<typeof machineCard> }> = {};
    for (const { machine, urls } of shown) {
      const card = cardOf(machine, buttonsOf, rates.get(machine.machineType));
      for (const url of urls) unfurls[url] = card;
    }
    if (Object.keys(unfurls).length === 0) return;
    // A link typed in the message composer has no message yet: Slack names it by unfurl_id and source.
    const { unfurl_id: unfurlId, source } = event;
    if (unfurlId !== undefined && (source === 'composer' || source === 'conversations_history')) {
      await client.chat.unfurl({ unfurl_id: unfurlId, source, unfurls });
    } else {
      await client.chat.unfurl({ channel: event.channel, ts: event.message_ts, unfurls });
    }
  };
}
