// The Events API envelope Slack wraps every event in (`event_callback`), as the sandbox workspace
// sends it to the app: one app, one workspace, its bot as the authorization.
import { randomBytes } from 'node:crypto';
import { SANDBOX_APP, SANDBOX_TEAM } from './sandbox-identity.js';

/** The deprecated verification token Slack still puts in bodies; Bolt ignores it. */
export const VERIFICATION_TOKEN = 'sandbox-verification-token';

export function eventCallback(event: Record<string, unknown>, nowMs: number): Record<string, unknown> {
  return {
    token: VERIFICATION_TOKEN,
    team_id: SANDBOX_TEAM.id,
    api_app_id: SANDBOX_APP.appId,
    event,
    type: 'event_callback',
    event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: Math.floor(nowMs / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: SANDBOX_TEAM.id,
        user_id: SANDBOX_APP.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}
