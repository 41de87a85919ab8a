import { describe, expect, it } from 'vitest';
import { teamRoleOf } from '../../src/domain/team-role.js';
import { viewerButtons } from '../../src/features/machines/machine-permissions.js';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import { MissingAccessTokenError } from '../../src/paperspace/errors.js';
import type { Machine } from '../../src/paperspace/schemas.js';

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
const quiet = { info: () => {} };

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

describe('viewerButtons', () => {
  // The cards and /ps approvals used to disagree here: the cards hid Settings, Access and Destroy as if
  // Paperspace had said "member", while the requests let Paperspace judge. Paperspace judges: a role it
  // would not tell never hides a button whose click it might accept.
  it("offers the manage buttons on a teammate's machine when Paperspace does not say the role", async () => {
    const buttons = await viewerButtons(
      { ...noNotes, logger: quiet },
      { user: SAM, client: legacyClientWithoutToken(), paperspaceUserId: 'u1sam' },
      [{ id: 'ps1', userId: 'u1maya' } as unknown as Machine],
    );
    expect(buttons({ id: 'ps1', userId: 'u1maya' } as unknown as Machine)).toEqual({
      power: false,
      manage: true,
    });
  });
});
