/** A person in Slack. User ids are only unique within a workspace, so the team always comes along. */
export interface SlackUser {
  teamId: string;
  userId: string;
}
