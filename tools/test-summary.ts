// Adds up the vitest JSON reports every package wrote (restored by turbo on a cache hit too): its files'
// (vitest.json, and untimed.json when pnpm test ran its listed files apart), and the type tests of every
// package (the repository's .test-results/types.json, from `pnpm typecheck:all`), and prints one closing
// line: "N passed, N failed", after the name of each failed test (the run's tail is often all a CI shows).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];
/** One failed test or file, with the first line of its error. */
const failure = (what: string, message = '') => {
  const reason = message.split('\n')[0].slice(0, 300);
  return `  ✗ ${what}${reason ? `\n      ${reason}` : ''}`;
};
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
    testResults?: {
      name: string;
      status?: string;
      message?: string;
      assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
    }[];
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const result of report.testResults ?? []) {
    const where = relative(root, result.name);
    const tests = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of tests)
      failures.push(failure(`${where} > ${test.fullName}`, test.failureMessages?.[0]));
    // A file that failed outside its tests (an import, a hook): vitest reports no test of it.
    if (tests.length === 0 && result.status === 'failed') failures.push(failure(where, result.message));
  }
}
if (failures.length > 0) console.log(`\nfailed tests:\n${failures.join('\n')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
