// A real pino logger whose JSON lines are kept in memory, so tests can assert what was logged (and what never
// was: secrets).

import { Writable } from 'node:stream';
import { type Level, type Logger, pino } from 'pino';

interface LogLine {
  level: number;
  msg?: string;
  component?: string;
  [field: string]: unknown;
}

export interface LogCapture {
  logger: Logger;
  /** Every line logged so far, parsed. */
  lines(): LogLine[];
  /** Everything logged so far as raw text, for "this never appears anywhere" assertions. */
  text(): string;
  clear(): void;
}

export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

export function captureLogs(level: Level = 'debug'): LogCapture {
  let raw = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      raw += chunk.toString('utf8');
      callback();
    },
  });
  return {
    logger: pino({ level }, stream),
    lines: () =>
      raw
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LogLine),
    text: () => raw,
    clear() {
      raw = '';
    },
  };
}
