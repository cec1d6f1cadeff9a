#!/usr/bin/env node
// Time until the dashboard's usage view is ready (chart drawn with the export's answer),
// from navigation start, over several reloads of a signed-in page:
//   node --import ./test/support/ts-register.mjs test/support/dashboard-demo-server.ts
//   DASHBOARD_URL=<url> DASHBOARD_KEY=<accountKey> node bench/dashboard-load.mjs [reloads]
// Prints {inPage, wall, medianInPage, medianWall} in milliseconds.
/* global document, performance */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const url = process.env.DASHBOARD_URL;
const key = process.env.DASHBOARD_KEY;
if (!url || !key) {
  process.stderr.write(
    'usage: DASHBOARD_URL=... DASHBOARD_KEY=... node bench/dashboard-load.mjs\n',
  );
  process.exit(2);
}
const reloads = Number(process.argv[2] ?? 7);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-bench-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 1000 });
  await page.goto(url);
  await page.waitForSelector('#account-key');
  await page.type('#account-key', key);
  await page.click('button[type=submit]');
  await page.waitForFunction(() =>
    document.getElementById('usage-totals')?.getAttribute('data-query'),
  );
  const inPage = [];
  const wall = [];
  for (let i = 0; i < reloads; i++) {
    const started = Date.now();
    await page.reload();
    const ready = await page.waitForFunction(
      () =>
        document.getElementById('usage-totals')?.getAttribute('data-query') &&
        document.getElementById('usage-chart')
          ? performance.now()
          : false,
      { polling: 'raf' },
    );
    inPage.push(Math.round(await ready.jsonValue()));
    wall.push(Date.now() - started);
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log(
    JSON.stringify({ inPage, wall, medianInPage: median(inPage), medianWall: median(wall) }),
  );
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
