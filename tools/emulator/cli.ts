// `npm run emulator -- --port 4010 [--seed FILE] [--transition-ms N] [--latency-ms N] [--fail-rate F]
// [--rate-limit N] [--host H]`: runs the emulator until interrupted. Without --seed it serves the
// built-in demo world and prints its fake keys so a person can point the bot (or curl) at it.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { EmulatorUser } from './control.js';
import { SeedError } from './seed-schema.js';
import { type EmulatorOptions, startEmulator } from './server.js';

const USAGE =
  'usage: npm run emulator -- [--port N] [--host H] [--seed FILE] [--transition-ms N] [--latency-ms N] [--fail-rate F] [--rate-limit N]';

class UsageError extends Error {}

function numberFlag(name: string, raw: string | undefined, valid: (value: number) => boolean, rule: string) {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || !valid(value)) {
    throw new UsageError(`--${name} must be ${rule}, got "${raw}"`);
  }
  return value;
}

async function optionsFrom(argv: string[]): Promise<{ options: EmulatorOptions; customSeed: boolean }> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        'transition-ms': { type: 'string' },
        'latency-ms': { type: 'string' },
        'fail-rate': { type: 'string' },
        'rate-limit': { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const isInteger = Number.isInteger;
  const options: EmulatorOptions = {
    port:
      numberFlag(
        'port',
        values.port,
        (v) => isInteger(v) && v >= 0 && v <= 65535,
        'a port from 0 to 65535',
      ) ?? 4010,
    host: values.host ?? '127.0.0.1',
    transitionMs: numberFlag('transition-ms', values['transition-ms'], (v) => v >= 0, 'a number of ms >= 0'),
    latencyMs: numberFlag('latency-ms', values['latency-ms'], (v) => v >= 0, 'a number of ms >= 0'),
    failRate: numberFlag('fail-rate', values['fail-rate'], (v) => v >= 0 && v <= 1, 'a share from 0 to 1'),
    rateLimit: numberFlag(
      'rate-limit',
      values['rate-limit'],
      (v) => isInteger(v) && v >= 1,
      'a positive integer',
    ),
  };
  if (values.seed === undefined) return { options, customSeed: false };
  let text: string;
  try {
    text = await readFile(values.seed, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--seed: cannot read ${values.seed}: ${error instanceof Error ? error.message : error}`,
    );
  }
  try {
    return { options: { ...options, seed: JSON.parse(text) }, customSeed: true };
  } catch (error) {
    throw new UsageError(
      `--seed: ${values.seed} is not valid JSON: ${error instanceof Error ? error.message : error}`,
    );
  }
}

function describeUser(user: EmulatorUser, showKeys: boolean): string {
  const role =
    user.accountKind === 'individual'
      ? 'individual account, administrator'
      : `team ${user.accountName}, ${user.role === 'admin' ? 'administrator' : 'member'}`;
  const keys = showKeys
    ? `  API key: ${user.apiKey ?? '(none)'}  GraphQL access token: ${user.accessToken ?? '(none)'}`
    : '';
  return `  ${user.name} <${user.email}> (${role})${keys}`;
}

async function main(): Promise<void> {
  const { options, customSeed } = await optionsFrom(process.argv.slice(2));
  const emulator = await startEmulator(options);
  const lines = [
    `Paperspace API emulator listening on ${emulator.url}`,
    `GraphQL: ${emulator.graphqlUrl}`,
    `v1 API: ${emulator.v1Url} (Authorization: Bearer <API key>; the contract's API is ${emulator.url} with X-Api-Key)`,
    // A custom seed's keys stay in its file; the demo keys are fake and printed so the demo is usable.
    customSeed ? 'Users from the seed:' : 'Demo users (fake keys, valid only against this emulator):',
    ...emulator.state.users().map((user) => describeUser(user, !customSeed)),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (error instanceof SeedError || error instanceof RangeError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
