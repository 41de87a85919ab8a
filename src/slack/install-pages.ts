// The pages a person sees at the end of the install flow (GET /slack/oauth_redirect), in place of
// @slack/oauth's bare defaults: what was installed where, and what to do next. An org-wide install on
// Enterprise Grid reaches no workspace by itself, so its page tells the administrator to add the app to
// workspaces. Every value shown comes from Slack and is escaped; no token ever reaches a page.
import type { ServerResponse } from 'node:http';
import { type CallbackOptions, ErrorCode, type Installation } from '@slack/oauth';
import { SLASH_COMMAND } from './ids.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(response: ServerResponse, status: number, title: string, paragraphs: string[]): void {
  const body = paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n');
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1>\n${body}</body></html>\n`,
  );
}

/** What the install page says once Slack has handed the installation over, or refused it. */
export const installCallbacks: Pick<CallbackOptions, 'success' | 'failure'> = {
  success(installation: Installation, _options, _request, response) {
    const command = `<code>${escapeHtml(SLASH_COMMAND)}</code>`;
    const nextSteps = [
      `Next, each person types ${command} <code>login</code> in Slack to link their own Paperspace API key; ${command} <code>help</code> lists what the bot does.`,
    ];
    if (installation.isEnterpriseInstall) {
      const org = escapeHtml(
        installation.enterprise?.name ?? installation.enterprise?.id ?? 'your organisation',
      );
      page(response, 200, 'Paperspace bot installed for your organisation', [
        `The app is installed org-wide on ${org}, but no workspace has it yet.`,
        'As an administrator, add it to the workspaces that should use it: in Slack, open your organisation’s ' +
          'admin dashboard, then <b>Integrations &gt; Installed apps</b>, choose this app and <b>Add to more workspaces</b>.',
        ...nextSteps,
      ]);
      return;
    }
    const team = escapeHtml(installation.team?.name ?? installation.team?.id ?? 'your workspace');
    page(response, 200, 'Paperspace bot installed', [`The app is installed in ${team}.`, ...nextSteps]);
  },
  failure(error, _options, _request, response) {
    // Said from the error's code (or Slack's, when Slack refused the exchange), never its message:
    // that may quote Slack's answer.
    const slackError = slackErrorOf(error);
    page(response, 400, 'The Paperspace bot was not installed', [
      `${failureReason(error.code, slackError)} (${escapeHtml(slackError ?? error.code ?? 'unknown error')}).`,
      'Start again from <a href="/slack/install">the install page</a>. If it keeps failing, ask whoever runs the bot to check its log.',
    ]);
  },
};

/** Slack's own error code when oauth.v2.access refused the exchange (a Web API platform error). */
function slackErrorOf(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

function failureReason(code: string | undefined, slackError: string | undefined): string {
  switch (slackError) {
    // Slack accepts each approval's code once, for ten minutes: a reloaded or bookmarked redirect page.
    case 'invalid_code':
      return 'This approval was already used or has expired: Slack accepts each one once, within ten minutes';
    case 'bad_redirect_uri':
      return 'Slack refused the redirect URL: it must be the one in the app’s OAuth settings';
    case 'invalid_client_id':
    case 'bad_client_secret':
      return 'Slack refused the bot’s client id or secret: whoever runs the bot must check SLACK_CLIENT_ID and SLACK_CLIENT_SECRET';
  }
  switch (code) {
    case ErrorCode.MissingStateError:
    case ErrorCode.InvalidStateError:
      return 'The install link expired, was already used, or was finished in another browser than the one it started in';
    case ErrorCode.MissingCodeError:
    case ErrorCode.AuthorizationError:
      return 'Slack sent no approval back: the installation was cancelled';
    default:
      return 'Slack did not hand the installation over';
  }
}
