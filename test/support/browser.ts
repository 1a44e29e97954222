import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), or another one named by CHROMIUM_PATH. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Set by .ci/run, which installs Chromium: there a missing browser fails the browser tests rather than skipping them. */
const browserRequired = process.env.LECTERN_REQUIRE_BROWSER === '1';
/** Whether browser tests skip: Chromium is missing and nothing requires it. */
export const browserSkipped = !existsSync(chromiumPath) && !browserRequired;

/** Headless Chromium; throws where .ci/run requires it and it is missing. */
export function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath))
    throw new Error(`LECTERN_REQUIRE_BROWSER is set and there is no Chromium at ${chromiumPath}`);
  return chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
}
