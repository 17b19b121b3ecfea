import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildDocs } from '../../tools/docs/lib/build.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';

const INPUTS = [
  PATHS.specDir,
  PATHS.guides,
  PATHS.examples,
  join(PATHS.root, 'tools/docs'),
  join(PATHS.root, 'tools/lib'),
  PATHS.redoclyConfig,
  // The in-page runner bundles these packages' sources.
  ...['sandbox', 'client', 'callback', 'openapi', 'ratelimit', 'render', 'migrate'].map((p) =>
    join(PATHS.root, 'packages', p, 'src'),
  ),
];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(join(path, entry)));
  }
  return max;
}

/** Build the site first when docs/dist is missing or stale (or when DOCS_REBUILD=1). */
export default async function setup(): Promise<void> {
  const built = existsSync(PATHS.manifest) && existsSync(PATHS.html) ? statSync(PATHS.html).mtimeMs : 0;
  const stale = INPUTS.some((p) => newest(p) > built);
  if (built && !stale && process.env.DOCS_REBUILD !== '1') return;
  await buildDocs({ log: (line) => process.stdout.write(`[docs] ${line}\n`) });
}
