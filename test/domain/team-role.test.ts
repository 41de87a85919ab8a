import { describe, expect, it } from 'vitest';
import { teamRoleOf } from '../../src/domain/team-role.js';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import { MissingAccessTokenError, PaperspacePermissionError } from '../../src/paperspace/errors.js';

const SAM = { teamId: 'T1', userId: 'U0SAM' };

/** A legacy key of a team of two: no whoAmI, and no access token to read shared drives with. */
function legacyClientWithoutToken(): PaperspaceClient {
  return {
    capabilities: { whoAmI: false },
    users: { list: async () => [{ id: 'u1sam' }, { id: 'u1maya' }] },
    sharedDrives: {
      list: async () => {
        throw new MissingAccessTokenError('listSharedDrives', 'list shared drives');
      },
    },
  } as unknown as PaperspaceClient;
}

const noNotes = { store: { approvals: { knownRoles: async () => new Map<string, boolean>() } } };

describe('teamRoleOf', () => {
  it('answers unknown, not member, when Paperspace cannot say (legacy API, no access token)', async () => {
    const role = await teamRoleOf(noNotes, {
      user: SAM,
      client: legacyClientWithoutToken(),
      paperspaceUserId: 'u1sam',
    });
    expect(role.role).toBe('unknown');
  });

  it("answers admin or member from what the person's creates showed", async () => {
    const noted = (admin: boolean) => ({
      store: { approvals: { knownRoles: async () => new Map([['u1sam', admin]]) } },
    });
    const person = { user: SAM, client: legacyClientWithoutToken(), paperspaceUserId: 'u1sam' };
    expect((await teamRoleOf(noted(true), person)).role).toBe('admin');
    expect((await teamRoleOf(noted(false), person)).role).toBe('member');
  });
});

describe('one answer for /ps approvals and /ps spend', () => {
  // The two copies disagreed here: /ps approvals never asked Paperspace on the legacy API and let a
  // member whose creates it had not seen choose where the team's requests go, while /ps spend, asking
  // the same Paperspace the one administrator-only read, said "member". A member is a member for both.
  it('answers member when Paperspace refuses the person the administrator-only read', async () => {
    const client = {
      ...legacyClientWithoutToken(),
      sharedDrives: {
        list: async () => {
          throw new PaperspacePermissionError({
            operation: 'listSharedDrives',
            action: 'list shared drives',
            status: 403,
            body: { message: 'Forbidden' },
          });
        },
      },
    } as unknown as PaperspaceClient;
    const role = await teamRoleOf(noNotes, { user: SAM, client, paperspaceUserId: 'u1sam' });
    expect(role.role).toBe('member');
  });
});
