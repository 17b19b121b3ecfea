import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../tools/lib/chromium.ts';

/** A launched browser: its one context, and `close()`. */
export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Debian chromium (or CHROMIUM_PATH) on a fresh profile, at a desktop viewport; `close()` ends it and
 * removes the profile. Install chromium with tools/ci/install-chromium.sh.
 */
export async function launchChromium(name: string): Promise<Chromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no chromium at ${CHROMIUM}: run tools/ci/install-chromium.sh or set CHROMIUM_PATH`);
  }
  const profile = mkdtempSync(join(tmpdir(), `docs-${name}-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
