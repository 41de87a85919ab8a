// The bot token scopes manifest.yml requests, each with the Web API methods that need it. Only what
// the bot calls: a scope nobody uses widens what a leaked bot token can do and scares off the admin
// who installs the app. (Modals and App Home — views.open, views.update, views.publish — and replies
// through a command's or an action's response_url need no scope.)

export const BOT_SCOPES = [
  // The /ps slash command.
  'commands',
  // chat.postMessage: machine cards, watch completions in the card's thread, channel shares, and
  // reminders in the user's DM with the app (posting to a user id opens that DM, so im:write is not
  // needed); chat.update: cards updated in place, shares marked expired; chat.postEphemeral.
  'chat:write',
  // chat.postMessage and chat.update in the public channel where /ps was typed, without first
  // inviting the bot there. Private channels still need the bot invited.
  'chat:write.public',
  // users.info: the user's time zone (tz) for reminders at HH:MM local time, and for times shown.
  'users:read',
  // users.info's profile.email: a team key is linked only to the member whose Paperspace e-mail is
  // the e-mail of the person's own Slack profile, so nobody can link under a teammate's address.
  'users:read.email',
  // The link_shared event: a message with a link to the unfurl domain (paperspace.com) was posted.
  'links:read',
  // chat.unfurl: a console link to a machine shown as its card.
  'links:write',
  // Slackbot's MCP client may connect to the app's MCP server (manifest.yml's mcp_servers, POST /mcp):
  // people ask Slackbot about their machines and Slackbot calls the bot's tools for them. No Web API
  // method needs it; without it Slackbot does not offer the server.
  'mcp:connect',
] as const;
