// Link unfurling, as far as the sandbox plays Slack's part: a person's message with links to one of
// the app's unfurl domains (manifest.yml `features.unfurl_domains`, subdomains included) reaches the
// app as a signed `link_shared` event. The app's chat.unfurl is answered by the same module as the fake
// Slack's (link-unfurls.ts: only a shared message, only its URLs), then the unfurl is shown under the
// message, its buttons clickable like any card's.
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { eventCallback } from './event-envelope.js';
import type { FakeUnfurls } from './link-unfurls.js';
import { ackFailure, createSignedSender } from './signed-sender.js';
import type { PageMessage, Workspace } from './workspace.js';

const manifestDomains = z.object({
  features: z.object({ unfurl_domains: z.array(z.string()).default([]) }),
});

/** The domains the app registered: Slack sends link_shared for these and their subdomains only. */
function readUnfurlDomains(): string[] {
  const text = readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8');
  return manifestDomains.parse(parseYaml(text)).features.unfurl_domains.map((domain) => domain.toLowerCase());
}

// Stored message text has links as <url> or <url|label>, with &, < and > escaped inside.
const STORED_LINK = /<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>/g;
const unescapeStored = (text: string) =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The links of a stored message that fall under the given domains, each once, in order. */
function linksToUnfurl(text: string, domains: readonly string[]): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(STORED_LINK)) {
    const url = unescapeStored(match[1] ?? '');
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      continue;
    }
    const registered = domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
    if (registered && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

export interface LinkSharing {
  /** A person's message was posted: sends the app link_shared when it has links to unfurl. */
  posted(message: PageMessage, userId: string): Promise<void>;
  /** Slack took a chat.unfurl call with these arguments: shows the unfurls under their message. */
  unfurled(args: Record<string, unknown>, unfurls: Record<string, { blocks: unknown[] }>): void;
}

export interface LinkSharingOptions {
  unfurls: FakeUnfurls;
  workspace: Workspace;
  signingSecret: string;
  requestUrl: () => string;
  logger: Logger;
  now: () => number;
  ackTimeoutMs?: number;
}

export function createLinkSharing(options: LinkSharingOptions): LinkSharing {
  const { unfurls, workspace, logger } = options;
  const domains = readUnfurlDomains();
  const { send } = createSignedSender({
    signingSecret: options.signingSecret,
    requestUrl: options.requestUrl,
    logger,
    now: options.now,
    ...(options.ackTimeoutMs === undefined ? {} : { ackTimeoutMs: options.ackTimeoutMs }),
  });

  return {
    async posted(message, userId) {
      const urls = linksToUnfurl(message.text, domains);
      if (urls.length === 0) return;
      const shared = unfurls.share({ channel: message.channel, user: userId, urls, ts: message.ts });
      const botIsMember = workspace.conversation(message.channel)?.botIsMember ?? false;
      const body = eventCallback(
        {
          ...shared,
          is_bot_user_member: botIsMember,
          ...(message.threadTs === null ? {} : { thread_ts: message.threadTs }),
          event_ts: message.ts,
        },
        options.now(),
      );
      // Slack does not tell the poster when an app fails to unfurl: the link just stays a link.
      const failure = ackFailure(await send('application/json', JSON.stringify(body)));
      if (failure !== undefined) logger.warn({ failure }, 'the app did not take link_shared');
    },

    unfurled(args, given) {
      const target = unfurls.messageOf(args);
      if (target === undefined) return;
      const list = Object.entries(given).map(([url, unfurl]) => ({ url, blocks: unfurl.blocks }));
      workspace.unfurl(target.channel, target.ts, list);
    },
  };
}
