import { describe, expect, it } from 'vitest';
import { looksLikeSecret } from '../../../src/slack/command-language/secret-detector.js';

// Made-up credentials shaped like real ones; none of them was ever valid.
const HEX_KEY = '3f9a1c0be27d4e6f8a5b9c0d1e2f3a4b';
const ALNUM_KEY = 'k7Qm2Zx9Lp4Rt8Vn3Bw6Yc1Hd5Jf0Gs';

describe('looksLikeSecret flags', () => {
  it.each([
    ['a 32-character hex Paperspace key on its own', HEX_KEY],
    ['a hex key after /ps login', `login ${HEX_KEY}`],
    ['a longer hex key in upper case', `${HEX_KEY}${HEX_KEY}`.toUpperCase()],
    ['a random alphanumeric key', `login ${ALNUM_KEY}`],
    ['a key given as a key=value', `create apiKey=${ALNUM_KEY}`],
    ['a key in quotes', `show "${HEX_KEY}"`],
    ['a key in a URL query', `https://example.com/?key=${HEX_KEY}`],
    ['a key with dashes and underscores in it', 'ghp_k7Qm2Zx9Lp4Rt8Vn3Bw6Yc1Hd5Jf0Gs1a'],
    ['a Slack bot token', 'xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'],
    ['a Slack user token', 'token xoxp-1234567890-1234567890-1234567890-abcdef'],
    ['a Slack app-level token', 'xapp-1-A0123ABCDEF-1234567890123-abcdef0123456789'],
    ['a bearer header', 'Authorization: Bearer abc123def456ghi789jkl'],
    ['a bearer credential in lower case', 'bearer 9f8e7d6c5b4a39281706f5e4'],
    ['a labelled API key even when short', 'X-Api-Key: a1b2c3d4e5'],
    [
      'a JSON Web Token',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ],
  ])('%s', (_label, text) => {
    expect(looksLikeSecret(text)).toBe(true);
  });
});

describe('looksLikeSecret leaves ordinary command text alone', () => {
  it.each([
    ['a machine id', 'show psl0b3hq8'],
    ['a machine name with spaces', 'show "My Training Machine 2"'],
    ['a long hyphenated machine name', 'start my-long-machine-name-2024-v2-gpu'],
    ['a long name with a year at the end', 'start supercalifragilistic2024'],
    ['a camel-case name with digits', 'show thisIsAVeryLongMachineName123'],
    ['a list filter', 'list machineId=ps123abc state=ready'],
    [
      'create parameters',
      'create machineName="GPU box" region=CA1 machineType=P5000 size=250 templateId=tkni3aa4',
    ],
    ['a cron expression', 'remind 19:00 */15 * 1-5'],
    ['a full cron expression', '0 0 19 * * MON-FRI'],
    ['a Slack user mention', 'access psl0b3hq8 grant <@U0123ABCD|bob>'],
    ['a Slack workspace user mention', 'access psl0b3hq8 grant <@W0123ABCDEF>'],
    ['a date and a month', 'usage psl0b3hq8 2025-03 2025-03-14T19:00:00Z'],
    ['a URL without a key', 'https://console.paperspace.com/machines/psl0b3hq8/settings'],
    ['an e-mail link', 'create email=<mailto:first.last@example.com|first.last@example.com>'],
    ['a UUID-like event handle', 'show 123e4567-e89b-12d3-a456-426614174000'],
    ['a duration', 'wait psl0b3hq8 ready --timeout 1h30m'],
    ['a sentence with the word bearer', 'the bearer instrument is here'],
    ['the word token', 'my token is in the vault'],
    ['an empty text', ''],
    ['help', 'help script show'],
  ])('%s', (_label, text) => {
    expect(looksLikeSecret(text)).toBe(false);
  });
});
