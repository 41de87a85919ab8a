import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  machineListBody,
  machineListSchema,
  machineWithEventsBody,
  machineWithEventsSchema,
  type ResponseSchema,
} from '../../src/paperspace/schemas.js';
import { eventFixture, machineFixture } from './fake-paperspace.js';

/** Values a JSON body can hold in a field, of every type, and the edge cases the checks care about. */
const VALUES: readonly unknown[] = [undefined, null, '', 'text', 0, 1.5, -3, true, false, [], {}, ['x']];
const DELETED = Symbol('deleted');

function withField(base: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  if (value === DELETED) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** The in-place body and its zod schema give the same answer for `body` (each on a copy of its own). */
function expectSameAnswer<T>(fast: ResponseSchema<T>, schema: z.ZodType<T>, body: unknown): void {
  const fromZod = schema.safeParse(structuredClone(body));
  const answered = fast.safeParse(structuredClone(body));
  expect(answered.success).toBe(fromZod.success);
  if (fromZod.success) expect(answered.data).toEqual(fromZod.data);
  else expect(answered.error?.issues).toEqual(fromZod.error.issues);
}

const machineKeys = Object.keys(machineWithEventsSchema.shape);
const eventKeys = Object.keys(machineWithEventsSchema.shape.events.element.shape);

describe('response bodies answered in place give what their zod schemas give', () => {
  it('keeps a valid list as it came, with byte counts sent as numbers made strings', () => {
    const body = [machineFixture({ ram: 34359738368, storageUsed: 0 }), machineFixture({ id: 'ps2' })];
    const answered = machineListBody.safeParse(body);
    expect(answered.success).toBe(true);
    // Not a copy: that is the point of answering in place.
    expect(answered.data).toBe(body);
    expect(answered.data?.[0]).toMatchObject({ ram: '34359738368', storageUsed: '0' });
    expectSameAnswer(machineListBody, machineListSchema, [
      machineFixture({ ram: 34359738368, storageUsed: 0 }),
    ]);
  });

  it.each(machineKeys)('agrees with machineListSchema on every kind of value of %s', (key) => {
    for (const value of [DELETED, ...VALUES]) {
      expectSameAnswer(machineListBody, machineListSchema, [withField(machineFixture(), key, value)]);
      expectSameAnswer(machineWithEventsBody, machineWithEventsSchema, {
        ...withField(machineFixture(), key, value),
        ...(key === 'events' ? {} : { events: [eventFixture()] }),
      });
    }
  });

  it.each(eventKeys)("agrees on every kind of value of an event's %s", (key) => {
    for (const value of [DELETED, ...VALUES]) {
      const events = [eventFixture(), withField(eventFixture(), key, value)];
      expectSameAnswer(machineListBody, machineListSchema, [machineFixture({ events })]);
      expectSameAnswer(machineWithEventsBody, machineWithEventsSchema, machineFixture({ events }));
    }
  });

  it('agrees on bodies that are not lists or objects at all', () => {
    for (const body of VALUES) {
      expectSameAnswer(machineListBody, machineListSchema, body);
      expectSameAnswer(machineWithEventsBody, machineWithEventsSchema, body);
      expectSameAnswer(machineListBody, machineListSchema, [body]);
    }
  });

  it('agrees on machines with several fields changed at once', () => {
    const field = fc.tuple(fc.constantFrom(...machineKeys), fc.constantFrom(DELETED, ...VALUES));
    fc.assert(
      fc.property(fc.array(fc.array(field, { maxLength: 4 }), { minLength: 1, maxLength: 3 }), (machines) => {
        const body = machines.map((changes) =>
          changes.reduce((machine, [key, value]) => withField(machine, key, value), machineFixture()),
        );
        expectSameAnswer(machineListBody, machineListSchema, body);
      }),
    );
  });
});
