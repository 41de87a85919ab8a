// The benchmarks' Paperspace world: many individual accounts, each with its own API key, and the Slack
// users linked to them. Built here because the emulator's demo seed has only three people.

import type { SlackUser } from '../../src/store/slack-user.js';
import type { PaperspaceAccount } from '../../src/store/vault-entries.js';
import type { KeyVault } from '../../src/vault/key-vault.js';
import type { RunningEmulator, SeedInput } from '../../tools/emulator/index.js';

export const BENCH_TEAM_ID = 'T0BENCH';

/** One person: a Slack user linked to an individual Paperspace account with its own key. */
export interface BenchAccount {
  slackUser: SlackUser;
  apiKey: string;
  account: PaperspaceAccount;
}

export function benchAccounts(count: number): BenchAccount[] {
  return Array.from({ length: count }, (_, index) => {
    const n = String(index + 1).padStart(4, '0');
    return {
      slackUser: { teamId: BENCH_TEAM_ID, userId: `U0BENCH${n}` },
      apiKey: `bench-key-${n}`,
      // An individual account has a team id too: Paperspace (and the emulator) answers the account's own.
      account: { userId: `u1bench${n}`, email: `bench${n}@example.com`, teamId: `u1bench${n}` },
    };
  });
}

/** A seed with one individual account per person and the stock Ubuntu template machines are built from. */
export function benchSeed(accounts: readonly BenchAccount[]): SeedInput {
  return {
    users: accounts.map(({ account, apiKey }) => ({
      id: account.userId,
      email: account.email,
      firstname: 'Bench',
      lastname: account.userId,
      apiKey,
    })),
    templates: [
      { id: 't04azgph', name: 'paperspace/t04azgph', label: 'Ubuntu 20.04 Server', os: 'Ubuntu 20.04' },
    ],
  };
}

/**
 * Gives every person `perAccount` machines that are starting (with a long transitionMs they stay so),
 * as after `/ps start`; answers each person's machine ids in the order of `accounts`.
 */
export function addStartingMachines(
  emulator: RunningEmulator,
  accounts: readonly BenchAccount[],
  perAccount: number,
  /** `off` for a caller that starts them through the API itself, to hold the start's event (v1). */
  state: 'starting' | 'off' = 'starting',
): string[][] {
  return accounts.map(({ account }) =>
    emulator.state.addMachines(perAccount, {
      owner: account.userId,
      state,
      namePrefix: account.userId,
    }),
  );
}

export async function linkAccounts(vault: KeyVault, accounts: readonly BenchAccount[]): Promise<void> {
  for (const { slackUser, apiKey, account } of accounts) await vault.link(slackUser, { apiKey, account });
}
