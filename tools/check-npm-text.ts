// The text npm users see besides the READMEs: every string a published package's source can print or throw
// (messages, CLI help), and the CLIs' --help output as they print it. None may point into this repository
// (paths, scripts, tests, issues): npm users have only the package.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;

/** What npm-facing text must not say, and why. */
export const REPOSITORY_TEXT: Array<[RegExp, string]> = [
  [/\bpnpm (run|test|bench|--filter)\b/, 'names a repository script'],
  [
    /(^|[\s(`'"])(tools|docs\/(examples|guides|test|dist)|\.changeset|spec\/(paths|components))\//,
    'names a repository path',
  ],
  [/\bpackages\/[a-z]+\//, 'names a repository path'],
  [/\b[\w-]+\.(test|test-d|fuzz\.test)\.ts\b/, 'names a test file'],
  // This repository's issues; another project's (`octokit/plugin-throttling#629`) may be cited.
  [/\b(the|this|that) issue\b|\bissue #?\d+|(?<![\w/.-])#\d{2,}\b/i, 'refers to an issue'],
];

export interface TextProblem {
  where: string;
  problem: string;
  text: string;
}

export function textProblems(where: string, text: string): TextProblem[] {
  const problems: TextProblem[] = [];
  const prose = text.replace(/https:\/\/\S+/g, '');
  for (const [pattern, problem] of REPOSITORY_TEXT)
    if (pattern.test(prose)) problems.push({ where, problem, text: text.trim().slice(0, 120) });
  return problems;
}

/** String and template literals of a source file, except module specifiers (imports, exports, import()). */
export function sourceStrings(fileName: string, source: string): Array<{ line: number; text: string }> {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const out: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) return;
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      out.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (
      /\.ts$/.test(entry) &&
      !/\.(test|test-d)\.ts$|\.d\.ts$/.test(entry) &&
      !path.includes('/generated/')
    )
      out.push(path);
  }
  return out;
}

interface Pkg {
  dir: string;
  name: string;
  private?: boolean;
  bin?: Record<string, string>;
}

function packages(): Pkg[] {
  return readdirSync(join(root, 'packages')).map((dir) => ({
    dir,
    ...(JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Omit<Pkg, 'dir'>),
  }));
}

type Run = (args: string[]) => Promise<string>;

/** The CLI run in a process of its own, through tsx from its sources: its output, errors included. */
const spawned =
  (cli: string): Run =>
  async (args) => {
    try {
      return execFileSync(process.execPath, ['--import', 'tsx', cli, ...args], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 30_000,
      });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      return `${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
  };

/**
 * The CLI run in this process, when its package's node entry exports `runCli(argv, io)` (the CLI's bin
 * only passes it the process's streams): a process per help through tsx costs about 2 s of CPU each.
 */
async function embedded(pkg: Pkg): Promise<Run | undefined> {
  const entry = join(root, 'packages', pkg.dir, 'src', 'node', 'index.ts');
  if (!/\brunCli\b/.test(readFileSync(entry, 'utf8'))) return undefined;
  const { runCli } = (await import(entry)) as {
    runCli: (
      argv: string[],
      io: { stdout: Out; stderr: Out; env: Record<string, string> },
    ) => Promise<number>;
  };
  return async (args) => {
    let text = '';
    const out: Out = { write: (chunk) => (text += chunk) };
    await runCli(args, { stdout: out, stderr: out, env: {} });
    return text;
  };
}

interface Out {
  write(chunk: string): unknown;
}

/** The CLI's help, as printed: `--help`, and `<command> --help` for each command it lists. */
async function helpTexts(pkg: Pkg): Promise<Array<{ where: string; text: string }>> {
  const run = (await embedded(pkg)) ?? spawned(join(root, 'packages', pkg.dir, 'src', 'node', 'cli.ts'));
  const main = await run(['--help']);
  const texts = [{ where: `${pkg.name} --help`, text: main }];
  const commands = main.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  for (const m of commands.matchAll(/^\s{2}([a-z][\w-]*)/gm)) {
    const command = m[1];
    if (command && command !== 'help')
      texts.push({ where: `${pkg.name} ${command} --help`, text: await run([command, '--help']) });
  }
  return texts;
}

/** Checks every published package's messages and CLI help; prints the problems, returns their number. */
export async function checkNpmText(): Promise<number> {
  const problems: TextProblem[] = [];
  for (const pkg of packages()) {
    if (pkg.private) continue;
    for (const path of sourceFiles(join(root, 'packages', pkg.dir, 'src')))
      for (const { line, text } of sourceStrings(path, readFileSync(path, 'utf8')))
        problems.push(...textProblems(`${relative(root, path)}:${line}`, text));
    if (pkg.bin)
      for (const { where, text } of await helpTexts(pkg)) {
        // A help that did not print is a check that did not run.
        if (!/usage:/i.test(text))
          problems.push({ where, problem: 'printed no usage', text: text.slice(0, 120) });
        for (const line of text.split('\n')) problems.push(...textProblems(where, line));
      }
  }
  for (const p of problems) console.error(`${p.where}: ${p.problem}: ${p.text}`);
  console.log(
    `${'messages and CLI help'.padEnd(28)} ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}`,
  );
  return problems.length;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit((await checkNpmText()) ? 1 : 0);
