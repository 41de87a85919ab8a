// What Slackbot proposed, kept until its person decides: decided once (of two racing decisions, on two
// connections, one wins), never confirmed after its expiry, cancellable while open, forgotten a while
// after it expired, and gone with its workspace. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { describe, expect, it } from 'vitest';
import type { SlackbotProposal } from '../../src/store/slackbot-proposals.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const proposal = (id: string, expiresAt = 1_000): Omit<SlackbotProposal, 'decidedAt' | 'decision'> => ({
  id,
  user: { teamId: 'T1', userId: 'U_ADA' },
  operation: 'stop',
  params: { machine: 'gpu-1', noWait: false },
  summary: 'Stop a machine\n• machine: `gpu-1`',
  createdAt: 0,
  expiresAt,
});

describe.each(storeFactories)('Slackbot proposals on $name', (factory) => {
  const db = useFreshStore(factory);

  it('keeps a proposal as it was made, parameters included', async () => {
    await db.store.slackbotProposals.add(proposal('p1'));
    expect(await db.store.slackbotProposals.get('p1')).toEqual({
      ...proposal('p1'),
      decidedAt: null,
      decision: null,
    });
    expect(await db.store.slackbotProposals.get('p2')).toBeUndefined();
  });

  it('is confirmed once, by one of two racing clicks, and never after its expiry', async () => {
    const proposals = db.store.slackbotProposals;
    await proposals.add(proposal('p1'));
    const wins = await Promise.all([
      proposals.decide('p1', 'confirmed', 10),
      proposals.decide('p1', 'confirmed', 11),
    ]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect((await proposals.get('p1'))?.decision).toBe('confirmed');
    expect(await proposals.decide('p1', 'cancelled', 12)).toBe(false);

    await proposals.add(proposal('late', 1_000));
    expect(await proposals.decide('late', 'confirmed', 1_000)).toBe(false);
    expect((await proposals.get('late'))?.decidedAt).toBeNull();
    // Cancelling an expired one is harmless, and closes it.
    expect(await proposals.decide('late', 'cancelled', 1_001)).toBe(true);
  });

  it('forgets proposals that expired before a time, and a workspace purge takes the rest', async () => {
    const proposals = db.store.slackbotProposals;
    await proposals.add(proposal('old', 100));
    await proposals.add(proposal('new', 5_000));
    expect(await proposals.pruneExpired(1_000)).toBe(1);
    expect(await proposals.get('old')).toBeUndefined();
    await db.store.workspaces.purge('T1');
    expect(await proposals.get('new')).toBeUndefined();
  });
});
