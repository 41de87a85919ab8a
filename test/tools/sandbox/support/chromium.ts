// Real headless Chromium (Debian's `chromium` package) driven by playwright-core. Browser tests run
// when it is installed; on CI (CI=true) a missing Chromium fails the run instead of skipping, so the
// browser flow can never silently stop being tested; elsewhere the skip says why.
import { accessSync, constants } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { describe, it } from 'vitest';

const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
/** Screenshots go here (git-ignored). */
const ARTIFACTS_DIR = fileURLToPath(new URL('../../../artifacts/', import.meta.url));

function chromiumMissing(): string | undefined {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return undefined;
  } catch {
    return `Chromium is not installed at ${CHROMIUM_PATH}`;
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export async function screenshotPath(name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  return `${ARTIFACTS_DIR}${name}.png`;
}

/** A describe block whose tests need Chromium. */
export function describeInChromium(name: string, body: () => void): void {
  const missing = chromiumMissing();
  if (missing === undefined) {
    describe(name, body);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('has Chromium to run in', () => {
        throw new Error(`${missing}, and CI=true requires the browser tests: apt-get install -y chromium`);
      });
    });
  } else {
    describe.skip(`${name} [skipped: ${missing}; apt-get install -y chromium to run it]`, body);
  }
}
