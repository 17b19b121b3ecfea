// pnpm check:readmes — the package READMEs are read on npm, outside this repository. Each must start its code
// with the install line, link only to its own anchors or absolute URLs, and name no script or file that
// exists only in the repository (pnpm scripts, tools/, docs/ sources, benchmarks, tests) nor an issue. The
// other npm-facing text is checked too (check-npm-text.ts): messages in the sources and the CLIs' --help.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNpmText, textProblems } from './check-npm-text.ts';

const root = new URL('..', import.meta.url).pathname;

export interface ReadmeProblem {
  line: number;
  problem: string;
}

const REPOSITORY_ONLY: Array<[RegExp, string]> = [
  [/\bpnpm\b/, 'names pnpm (npm users install with npm; repository scripts belong in CONTRIBUTING)'],
  [
    /\b(tools|docs\/examples|docs\/guides|docs\/test|\.changeset|spec)\/[\w./-]*/,
    'names a repository-only path',
  ],
  [/\bbench\/|\bpackages\/[a-z]+\//, 'names a repository-only path'],
];

const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)|^\[[^\]]+\]:\s*(\S+)/g;

function linkProblem(target: string): string | undefined {
  if (target.startsWith('#') || /^https:\/\//.test(target) || target.startsWith('mailto:')) return undefined;
  if (/^http:\/\//.test(target)) return `links over http: ${target}`;
  return `relative link ${target} breaks on npm: link the published docs site or an anchor`;
}

/** Problems of one package README's text (exported for the check's own tests). */
export function readmeProblems(name: string, text: string): ReadmeProblem[] {
  const problems: ReadmeProblem[] = [];
  const lines = text.split('\n');
  const firstFence = lines.findIndex((l) => l.startsWith('```'));
  const firstCode = firstFence === -1 ? '' : (lines[firstFence + 1] ?? '');
  if (!new RegExp(`^npm (install|i) [^\\n]*${name.replace('/', '\\/')}`).test(firstCode))
    problems.push({ line: firstFence + 2, problem: `the first code block is not \`npm install ${name}\`` });
  lines.forEach((line, i) => {
    for (const match of line.matchAll(LINK)) {
      const problem = linkProblem(match[1] ?? match[2] ?? '');
      if (problem) problems.push({ line: i + 1, problem });
    }
    // Absolute URLs may contain anything; look at the rest of the line.
    const prose = line.replace(/https:\/\/\S+/g, '');
    for (const [pattern, problem] of REPOSITORY_ONLY)
      if (pattern.test(prose))
        problems.push({ line: i + 1, problem: `${problem}: ${line.trim().slice(0, 100)}` });
    // Test files and issues, as in every other npm-facing text.
    for (const p of textProblems(`line ${i + 1}`, line))
      if (p.problem !== 'names a repository path' && p.problem !== 'names a repository script')
        problems.push({ line: i + 1, problem: `${p.problem}: ${p.text.slice(0, 100)}` });
  });
  return problems;
}

async function main(): Promise<void> {
  let failed = 0;
  for (const dir of readdirSync(join(root, 'packages'))) {
    const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
      name: string;
      private?: boolean;
    };
    if (pkg.private) continue;
    const problems = readmeProblems(pkg.name, readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8'));
    for (const p of problems) console.error(`packages/${dir}/README.md:${p.line}: ${p.problem}`);
    failed += problems.length;
    console.log(`${pkg.name.padEnd(28)} ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}`);
  }
  // Messages a package can print or throw, and its CLI's --help output.
  failed += await checkNpmText();
  if (failed) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
