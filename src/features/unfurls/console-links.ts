// Which links are machine pages of the Paperspace console, and of which machine. The console's public
// URL forms: today's https://console.paperspace.com/<team handle>/machines/<id> (with a tab after the
// id, e.g. /settings), the older https://console.paperspace.com/machines/<id>, and the first console's
// https://www.paperspace.com/console/machines/<id>. Anything else (notebooks, deployments, docs, other
// hosts) is not a machine page and is left to Slack's own preview.

/**
 * Longer than any console URL can be: a team handle, a machine id and a tab fit in a few dozen
 * characters. A longer "link" is not a console page: it is dropped before it is parsed, and above all
 * before it becomes a key of chat.unfurl's `unfurls`. Slack's Web API client (@slack/web-api 8.2, `redact`
 * in WebClient.makeRequest) matches every argument key against the pattern `.*token.*` before each
 * call, debug logging or not, and that match is quadratic in the key's length: a 100 KB URL held the event
 * loop, and so every other request, for seconds.
 */
const MAX_CONSOLE_URL_LENGTH = 2048;
/**
 * The machines one message unfurls: each costs the poster's key a read, and a message pasted
 * full of links must not spend it (nor the bot's time) on more. The rest keep Slack's own preview.
 */
export const MAX_MACHINES_PER_MESSAGE = 5;

/** Machine ids are short lowercase letters and digits (`psl0b3hq8`, `m1x2y3z4`). */
const MACHINE_ID = /^[a-z0-9]{4,32}$/;
const TEAM_HANDLE = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/** The machine id a console link points to, or undefined when it is not a console machine page. */
export function machineIdOfConsoleUrl(link: string): string | undefined {
  if (link.length > MAX_CONSOLE_URL_LENGTH) return undefined;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:') return undefined;
  const parts = url.pathname.split('/').filter((part) => part !== '');
  const host = url.hostname.toLowerCase();
  let id: string | undefined;
  if (host === 'console.paperspace.com') {
    if (parts[0] === 'machines') id = parts[1];
    else if (parts[1] === 'machines' && TEAM_HANDLE.test(parts[0] ?? '')) id = parts[2];
  } else if (host === 'www.paperspace.com' || host === 'paperspace.com') {
    if (parts[0] === 'console' && parts[1] === 'machines') id = parts[2];
  }
  return id !== undefined && MACHINE_ID.test(id) ? id : undefined;
}

/**
 * The machines a message's links point to, each once with every link to it, the first
 * MAX_MACHINES_PER_MESSAGE of them in the order they were posted. `links` may be missing: an event
 * without links asks for nothing.
 */
export function consoleMachineLinks(
  links: readonly { url: string }[] | undefined,
): { machineId: string; urls: string[] }[] {
  const byMachine = new Map<string, string[]>();
  for (const { url } of links ?? []) {
    const machineId = machineIdOfConsoleUrl(url);
    if (machineId === undefined) continue;
    const urls = byMachine.get(machineId);
    if (urls !== undefined) {
      if (!urls.includes(url)) urls.push(url);
    } else if (byMachine.size < MAX_MACHINES_PER_MESSAGE) {
      byMachine.set(machineId, [url]);
    }
  }
  return [...byMachine].map(([machineId, urls]) => ({ machineId, urls }));
}
