import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MalformedPayloadError } from '../../../src/errors/malformed-payload-error.js';
import { decodeEncodedValue } from '../../../src/slack/block-kit/encoded-value.js';

const schema = z.strictObject({ id: z.string().min(1) });

describe('decodeEncodedValue', () => {
  it('returns the value the schema accepts', () => {
    expect(decodeEncodedValue(schema, '{"id":"a"}', 'Test value')).toEqual({ id: 'a' });
  });

  function refusal(raw: string): MalformedPayloadError {
    try {
      decodeEncodedValue(schema, raw, 'Test value');
    } catch (error) {
      if (error instanceof MalformedPayloadError) return error;
      throw error;
    }
    throw new Error(`${raw} was accepted`);
  }

  it('names the value when it is not JSON: to the person in words, to the log exactly', () => {
    const error = refusal('id=a');
    expect(error.message).toMatch(/^Slack sent back Test value in a form I never write, so I did nothing/);
    expect(error.detail).toBe('Test value is not JSON');
  });

  it('names the value, and for the log the refused field, when the schema refuses it', () => {
    const error = refusal('{"id":""}');
    expect(error.message).toContain('Test value');
    expect(error.message).not.toContain('"id"');
    expect(error.detail).toMatch(/^Test value is invalid: .*id/s);
  });
});
