// Adds up the vitest JSON reports every package wrote (restored by turbo on a cache hit too): its files'
// (vitest.json, and untimed.json when pnpm test ran its listed files apart), and the type tests of every
// package (the repository's .test-results/types.json, from `pnpm typecheck:all`), and prints one closing
// line: "N passed, N failed".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const dirs = [
  ...readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name)),
  join(root, 'docs'),
  join(root, 'tools'),
  root,
];
const reports = dirs.flatMap((dir) =>
  ['vitest.json', 'untimed.json', 'types.json'].map((name) => join(dir, '.test-results', name)),
);
for (const file of reports) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
