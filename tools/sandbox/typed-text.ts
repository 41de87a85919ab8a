// What Slack makes of typed text before an app sees it. The manifest sets `should_escape: true` for
// /ps, so Slack escapes &, < and >, turns @mentions into <@U123|name>, #channels into <#C123|name>,
// links into <url> and e-mail addresses into <mailto:...|...>; messages are stored the same way.

export interface Directory {
  people: readonly { id: string; handle: string }[];
  channels: readonly { id: string; name: string; kind: string }[];
}

const escapeControl = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// One pass, alternatives in priority order: a link, then an e-mail address (before a mention, since
// it contains an @), then a mention, then a channel. Mentions and channels start at a word boundary.
const TOKEN =
  /(https?:\/\/[^\s<>]+[^\s<>.,;:!?)'"])|([\w.+-]+@[\w-]+(?:\.[\w-]+)+)|(?<![\w@])@([\w.-]+)|(?<![\w#])#([\w-]+)/g;

/** Typed text as Slack sends it to the app (slash command text) and stores it (messages). */
export function slackEncodeTyped(text: string, directory: Directory): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [whole, url, email, handle, channelName] = match;
    const replacement = url
      ? `<${escapeControl(url)}>`
      : email
        ? `<mailto:${escapeControl(email)}|${escapeControl(email)}>`
        : handle
          ? mention(handle, directory)
          : channelName
            ? channel(channelName, directory)
            : undefined;
    if (replacement === undefined) continue;
    out += escapeControl(text.slice(last, match.index)) + replacement;
    last = match.index + whole.length;
  }
  return out + escapeControl(text.slice(last));
}

function mention(handle: string, directory: Directory): string | undefined {
  const trimmed = handle.replace(/[.-]+$/, '');
  const person = directory.people.find((candidate) => candidate.handle === trimmed.toLowerCase());
  if (person === undefined) return undefined;
  return `<@${person.id}|${person.handle}>${escapeControl(handle.slice(trimmed.length))}`;
}

function channel(name: string, directory: Directory): string | undefined {
  const found = directory.channels.find((candidate) => candidate.kind !== 'im' && candidate.name === name);
  return found === undefined ? undefined : `<#${found.id}|${found.name}>`;
}
