// Which links are machine pages of the Paperspace console, and of which machine. The console's public
// URL forms: today's https://console.paperspace.com/<team handle>/machines/<id> (with a tab after the
// id, e.g. /settings), the older https://console.paperspace.com/machines/<id>, and the first console's
// https://www.paperspace.com/console/machines/<id>. Anything else (notebooks, deployments, docs, other
// hosts) is not a machine page and is left to Slack's own preview.

/** Machine ids are short lowercase letters and digits (`psl0b3hq8`, `m1x2y3z4`). */
const MACHINE_ID = /^[a-z0-9]{4,32}$/;
const TEAM_HANDLE = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/** The machine id a console link points to, or undefined when it is not a console machine page. */
export function machineIdOfConsoleUrl(link: string): string | undefined {
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
