// Whom a step acts for, read from the function_executed event alone: the user context Slack set, and
// nothing a workflow's builder could have typed.
import { describe, expect, it } from 'vitest';
import { actingPerson } from '../../../src/features/workflow-steps/step-actor.js';

const WORKSPACE = { enterpriseId: undefined, teamId: 'T0TEAM' };
const USER_CONTEXT = [{ name: 'user', type: 'slack#/types/user_context' }];
const CONTEXT = { id: 'U0ADA', secret: 'c2VjcmV0LWZyb20tc2xhY2s' };
const person = (declared: { name: string; type: string }[], user: unknown) =>
  actingPerson(WORKSPACE, { declared, inputs: { machine: 'gpu-1', user } });

describe('the person a step acts for', () => {
  it('is the user context Slack set, keyed as their own commands are', () => {
    expect(person(USER_CONTEXT, CONTEXT)).toEqual({ teamId: 'T0TEAM', userId: 'U0ADA' });
    expect(
      actingPerson(
        { enterpriseId: 'E0ORG', teamId: 'T0TEAM' },
        { declared: USER_CONTEXT, inputs: { user: CONTEXT } },
      ),
    ).toEqual({ teamId: 'E0ORG', userId: 'U0ADA' });
  });

  it('is nobody for a plain user id, whatever the manifest declared', () => {
    for (const declared of [USER_CONTEXT, [{ name: 'user', type: 'slack#/types/user_id' }]]) {
      expect(() => person(declared, 'U0ADA')).toThrow('remove the step and add it again');
    }
  });

  it('is nobody for a user context under an input the installed manifest declares as something else', () => {
    for (const type of ['slack#/types/user_id', 'object']) {
      expect(() => person([{ name: 'user', type }], CONTEXT)).toThrow('remove the step and add it again');
    }
  });

  it('is nobody without Slack’s secret, without a user id, or when Slack set no context', () => {
    for (const user of [
      { id: 'U0ADA' },
      { id: 'U0ADA', secret: '' },
      { id: 'ada', secret: 's' },
      undefined,
    ]) {
      expect(() => person(USER_CONTEXT, user), JSON.stringify(user)).toThrow(
        'a workflow that starts on a schedule needs a message with a button',
      );
    }
  });
});
