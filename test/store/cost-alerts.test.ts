import { describe, expect, it } from 'vitest';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2025, 0, 6, 9, 0);
const HOUR = 60 * 60_000;
const ADA = { teamId: 'T1', userId: 'U_ADA' };
const SAM = { teamId: 'T1', userId: 'U_SAM' };

describe.each(storeFactories)('cost alert store on $name', (factory) => {
  const db = useFreshStore(factory);

  it('keeps a person’s threshold apart from the workspace default, with null as off', async () => {
    const alerts = db.store.costAlerts;
    expect(await alerts.threshold(ADA)).toBeUndefined();
    expect(await alerts.teamDefault('T1')).toBeUndefined();
    await alerts.setTeamDefault('T1', 6 * HOUR, T0);
    await alerts.setThreshold(ADA, null, T0);
    expect(await alerts.threshold(ADA)).toBeNull();
    expect(await alerts.threshold(SAM)).toBeUndefined();
    expect(await alerts.teamDefault('T1')).toBe(6 * HOUR);
    expect(await alerts.teamDefault('T2')).toBeUndefined();
    await alerts.setThreshold(ADA, 2 * HOUR, T0 + 1);
    expect(await alerts.threshold(ADA)).toBe(2 * HOUR);
  });

  it('claims each (machine, arming) once, and a released claim can be taken again', async () => {
    const alerts = db.store.costAlerts;
    const claims = await Promise.all(Array.from({ length: 5 }, () => alerts.claimAlert('ps1', T0, ADA, T0)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await alerts.claimAlert('ps1', T0 + HOUR, ADA, T0)).toBe(true);
    await alerts.releaseAlert('ps1', T0);
    expect(await alerts.claimAlert('ps1', T0, ADA, T0)).toBe(true);
  });

  it('follows a run from its start, keeps it running until a time, and forgets it when it ends', async () => {
    const alerts = db.store.costAlerts;
    expect(await alerts.keep('ps1', T0 + HOUR)).toBe(false);
    await alerts.beginRun({ machineId: 'ps1', owner: ADA, runningSince: T0, sinceEstimated: false });
    // Another replica beginning the same run later does not move its start.
    await alerts.beginRun({ machineId: 'ps1', owner: ADA, runningSince: T0 + 5, sinceEstimated: true });
    expect(await alerts.keep('ps1', T0 + HOUR)).toBe(true);
    expect(await alerts.runs(['ps1', 'ps2'])).toEqual([
      { machineId: 'ps1', owner: ADA, runningSince: T0, sinceEstimated: false, keptUntil: T0 + HOUR },
    ]);
    // Seen stopped in another workspace's list: not this workspace's run.
    await alerts.endRuns('T-OTHER', ['ps1']);
    expect(await alerts.runs(['ps1'])).toHaveLength(1);
    // Seen stopped by anyone of the workspace (a team key lists the machine to everyone): ended.
    await alerts.endRuns(SAM.teamId, ['ps1']);
    expect(await alerts.runs(['ps1'])).toEqual([]);
  });

  it('ends every run of a person but those of the machines still listed as theirs', async () => {
    const alerts = db.store.costAlerts;
    for (const [machineId, owner] of [
      ['ps-listed', ADA],
      ['ps-destroyed', ADA],
      ['ps-sams', SAM],
    ] as const) {
      await alerts.beginRun({ machineId, owner, runningSince: T0, sinceEstimated: false });
    }
    await alerts.endRunsExcept(ADA, ['ps-listed']);
    const left = await alerts.runs(['ps-listed', 'ps-destroyed', 'ps-sams']);
    expect(left.map((run) => run.machineId).sort()).toEqual(['ps-listed', 'ps-sams']);
    // A person with no machine left listed: every run of theirs ends.
    await alerts.endRunsExcept(ADA, []);
    expect((await alerts.runs(['ps-listed', 'ps-sams'])).map((run) => run.machineId)).toEqual(['ps-sams']);
  });

  it('remembers the machines a person excluded, per person, with their names, until unmuted', async () => {
    const alerts = db.store.costAlerts;
    await alerts.exclude(ADA, { id: 'ps1', name: 'gpu-1' }, T0);
    await alerts.exclude(ADA, { id: 'ps1', name: 'gpu-1 renamed' }, T0 + 1);
    expect([...(await alerts.excluded(ADA))]).toEqual(['ps1']);
    expect(await alerts.muted(ADA)).toEqual([{ id: 'ps1', name: 'gpu-1' }]);
    expect(await alerts.excluded(SAM)).toEqual(new Set());
    expect(await alerts.unmute(SAM, 'ps1')).toBe(false);
    expect(await alerts.unmute(ADA, 'ps1')).toBe(true);
    expect(await alerts.muted(ADA)).toEqual([]);
  });

  it('knows where the alerts about a machine were posted until they are forgotten', async () => {
    const alerts = db.store.costAlerts;
    await alerts.recordMessage(ADA.teamId, ['ps1', 'ps2'], { channel: 'D1', ts: '1.1' }, T0);
    await alerts.recordMessage(ADA.teamId, ['ps1'], { channel: 'D2', ts: '2.2' }, T0 + 1);
    expect(await alerts.messagesAbout(ADA.teamId, ['ps1'])).toEqual([
      { machineId: 'ps1', channel: 'D1', ts: '1.1' },
      { machineId: 'ps1', channel: 'D2', ts: '2.2' },
    ]);
    expect(await alerts.messagesAbout('T-OTHER', ['ps1'])).toEqual([]);
    await alerts.forgetMessages(ADA.teamId, ['ps1']);
    expect(await alerts.messagesAbout(ADA.teamId, ['ps1', 'ps2'])).toEqual([
      { machineId: 'ps2', channel: 'D1', ts: '1.1' },
    ]);
  });
});
