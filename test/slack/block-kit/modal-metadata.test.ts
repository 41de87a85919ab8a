import { describe, expect, it } from 'vitest';
import {
  decodeModalMetadata,
  encodeMachineModalMetadata,
  encodeModalMetadata,
} from '../../../src/slack/block-kit/modal-metadata.js';

describe('modal metadata', () => {
  it('round-trips the context and is absent when there is none', () => {
    const context = {
      channelId: 'C1',
      threadTs: '1714602600.000100',
      responseUrl: 'https://hooks.slack.com/x',
    };
    expect(decodeModalMetadata(encodeModalMetadata(context))).toEqual(context);
    expect(encodeModalMetadata({})).toBeUndefined();
    expect(decodeModalMetadata('')).toEqual({});
  });

  it('carries a machine with a very long name within 3000 characters', () => {
    const encoded = encodeMachineModalMetadata({ id: 'ps1', name: 'n'.repeat(10_000) }, { channelId: 'C1' });
    expect(encoded.length).toBeLessThanOrEqual(3000);
    expect(decodeModalMetadata(encoded).machineName).toHaveLength(1000);
  });

  it.each([
    ['not JSON', '{'],
    ['an unknown key', '{"channelId":"C1","apiKey":"x"}'],
    ['a response url that is not a URL', '{"responseUrl":"javascript alert"}'],
  ])('rejects %s', (_, raw) => {
    expect(() => decodeModalMetadata(raw)).toThrow(/private_metadata/);
  });
});
