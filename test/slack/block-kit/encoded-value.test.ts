import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeEncodedValue } from '../../../src/slack/block-kit/encoded-value.js';

const schema = z.strictObject({ id: z.string().min(1) });

describe('decodeEncodedValue', () => {
  it('returns the value the schema accepts', () => {
    expect(decodeEncodedValue(schema, '{"id":"a"}', 'Test value')).toEqual({ id: 'a' });
  });

  it('names the value when it is not JSON', () => {
    expect(() => decodeEncodedValue(schema, 'id=a', 'Test value')).toThrow('Test value is not JSON');
  });

  it('names the value and the refused field when the schema refuses it', () => {
    expect(() => decodeEncodedValue(schema, '{"id":""}', 'Test value')).toThrow(
      /^Test value is invalid: .*id/s,
    );
  });
});
