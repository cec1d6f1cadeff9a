import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** Chromium from the Debian archive (`scripts/install-test-deps.sh`); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile and nothing that talks to the network on its own
 * (no component updates, sync or background requests), so a test sees only its own traffic.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} not found: run scripts/install-test-deps.sh (Debian package chromium) or set CHROMIUM_PATH`,
    );
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Console errors and uncaught exceptions of a page, for "no console errors" checks. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${(error as Error).message}`));
  return errors;
}

/** Waits until a file matching `pattern` is completely written in `dir`; its path. */
export async function waitForDownload(dir: string, pattern: RegExp, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = fs.readdirSync(dir).find((name) => pattern.test(name));
    if (done) return path.join(dir, done);
    if (Date.now() > deadline) throw new Error(`no download matching ${pattern} in ${dir}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
