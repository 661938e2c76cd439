// The real browser of the page tests: Debian chromium driven by playwright-core, or why the tests skip.
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** playwright-core, when installed; imported by name so type-checking never needs it. */
async function loadPlaywright(): Promise<any | null> {
  const name = 'playwright-core';
  try {
    return await import(name);
  } catch {
    return null;
  }
}

export const playwright = await loadPlaywright();

/** Why the browser tests cannot run here, or null. */
export const browserMissing: string | null = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (apt-get install chromium)`
  : !playwright
    ? 'playwright-core is not installed (npm i -D playwright-core)'
    : null;

/** Chromium as the page tests launch it: headless, no sandbox (root in CI), no GPU. */
export function launchChromium(): Promise<any> {
  return playwright.chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}
