import { chmod, rename, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { redactText } from '../node/redact.ts';
import { type AdapterOf, adapterExports, mayExportAdapter } from './adapter-imports.ts';
import { collectFiles, readSource, type Skipped, shownPath } from './files.ts';
import { createGitStatus } from './git-index.ts';
import { ANY_MODULE, type CaughtElsewhere, catchesElsewhere } from './importers.ts';
import { type FileProject, projectImports, type UnreadConfig } from './project-imports.ts';
import { type CodeFinding, type CodeOptions, transformWithSecrets } from './transform.ts';
import { typeImports } from './type-imports.ts';

export type CodeMode = 'dry' | 'write' | 'check';

export interface MigrateCodeOptions extends CodeOptions {
  /** `dry` (default): compute diffs; `write`: rewrite the files in place; `check`: only report. */
  mode?: CodeMode;
  /** Paths in the result are relative to it (default `process.cwd()`). */
  cwd?: string;
  /** Called after each file. */
  onFile?: (file: FileOutcome, done: number, total: number) => void;
}

export interface FileOutcome {
  path: string;
  /** `changed`: a rewrite is due (dry run); `written`: rewritten in place; `error`: not parsed or not written. */
  status: 'unchanged' | 'changed' | 'written' | 'error';
  findings: CodeFinding[];
  /** The unified diff of the rewrite (not with `check`). */
  diff?: string;
  error?: string;
  /** Set with `write` when git listed the file as modified before it was rewritten. */
  warning?: string;
}

/** A tsconfig.json or jsconfig.json the run could not read fully: the files under it are rewritten as without one. */
export interface ConfigOutcome {
  path: string;
  warning: string;
}

export interface MigrateCodeResult {
  files: FileOutcome[];
  skipped: Skipped[];
  /** The configs that could not be read fully (a syntax error, an `extends` not found), each once. */
  configs: ConfigOutcome[];
  totals: {
    files: number;
    changed: number;
    rewritten: number;
    todo: number;
    errors: number;
    skipped: number;
  };
}

/** Writes next to the file and renames over it: a reader never sees half a file. */
async function replaceFile(
  path: string,
  text: string,
  expected: { size: number; mtimeMs: number },
): Promise<void> {
  const now = await stat(path);
  if (now.size !== expected.size || now.mtimeMs !== expected.mtimeMs)
    throw new Error('changed on disk during the run; not written');
  const tmp = join(dirname(path), `.${basename(path)}.partner-print-migrate.tmp`);
  await writeFile(tmp, text, { flag: 'wx' });
  await chmod(tmp, now.mode & 0o7777);
  await rename(tmp, path);
}

/** `a/<path>` as git writes it, also for a path outside the working directory. */
const diffPath = (shown: string) => shown.replace(/\\/g, '/').replace(/^\/+/, '');

async function processFile(
  real: string,
  shown: string,
  options: MigrateCodeOptions,
  git: ReturnType<typeof createGitStatus>,
  caught: CaughtElsewhere,
  adapterOf: AdapterOf,
  project: FileProject,
) {
  const before = await stat(real);
  const src = await readSource(real);
  if ('skip' in src) return { skipped: { path: shown, reason: src.skip } };
  // Its own exports' catches, and those of a method called on an object not followed to its class (any module's).
  const any = caught.get(ANY_MODULE);
  const mine = caught.get(real);
  const elsewhere = any && mine ? new Map([...any, ...mine]) : (mine ?? any);
  const r = transformWithSecrets(src.text, shown, options, elsewhere, adapterOf, project);
  const outcome: FileOutcome = {
    path: shown,
    status: r.error ? 'error' : r.changed ? 'changed' : 'unchanged',
    findings: r.findings,
  };
  if (r.error) outcome.error = r.error;
  if (r.changed && options.mode !== 'check') {
    outcome.diff = createTwoFilesPatch(
      `a/${diffPath(shown)}`,
      `b/${diffPath(shown)}`,
      src.text,
      r.output,
      '',
      '',
      {
        context: 3,
        headerOptions: FILE_HEADERS_ONLY,
      },
    ).replace(/\t$/gm, '');
    // A key written in the code is shown in none of its lines, changed or not.
    outcome.diff = redactText(outcome.diff, r.secrets);
  }
  if (r.changed && options.mode === 'write') {
    if (await git.isModified(real))
      outcome.warning =
        'git lists this file as modified: its uncommitted changes are in the rewrite too; review the diff before committing';
    try {
      await replaceFile(real, r.output, before);
      outcome.status = 'written';
    } catch (e) {
      outcome.status = 'error';
      outcome.error = `not written: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return { outcome };
}

/** What a config that could not be read means for the run; its place, never its text. */
const unreadWarning = (p: UnreadConfig, cwd: string) => {
  const refused = 'a `paths` pattern TypeScript refuses (more than one `*`)';
  const failed = p.at
    ? `a syntax error at line ${p.at.line}, column ${p.at.column}`
    : 'an `extends` it names is not found';
  const what =
    p.refusedPaths === 'only' ? refused : p.refusedPaths === 'too' ? `${failed}, and ${refused}` : failed;
  const by = p.extendedBy ? `; extended by ${shownPath(p.extendedBy, cwd)}` : '';
  const then = p.ownSettings
    ? `the files under it are rewritten with the \`paths\` and \`baseUrl\` ${shownPath(p.ownSettings, cwd)} writes itself, as TypeScript reads it without what failed`
    : "the files under it are rewritten as without a config (a type imported for a callback's query from any module is marked, as a path alias is not told from a package)";
  return `could not be read fully (${what}${by}): ${then}`;
};

/**
 * Rewrites the V1 calls of the JavaScript and TypeScript files under `paths` into V2 SDK calls, marks what
 * it cannot prove with a TODO comment, and reports both. A file that does not parse is reported and left
 * as it is; binary and generated files are skipped; nothing outside `paths` is read or written.
 */
export async function migrateCode(
  paths: string[],
  options: MigrateCodeOptions = {},
): Promise<MigrateCodeResult> {
  const cwd = options.cwd ?? process.cwd();
  const { files, skipped } = await collectFiles(paths);
  const git = createGitStatus();
  // A catch in one module reading the V1 error of a call in another: found in every file before any is rewritten.
  // And the modules that make a V1 adapter or pass exports on (read in that pass): another file may import one.
  // And the types each file names of another file of the run (a JSDoc typedef is visible to every module).
  const texts = new Map<string, string>();
  const types = typeImports(files, (real) => shownPath(real, cwd));
  const caught = await catchesElsewhere(
    files,
    (real) => shownPath(real, cwd),
    async (real) => {
      const src = await readSource(real);
      if ('text' in src) types.scan(real, src.text);
      if ('text' in src && mayExportAdapter(src.text)) texts.set(real, src.text);
      return src;
    },
  );
  const adapters = adapterExports(files, texts);
  texts.clear();
  const result: MigrateCodeResult = {
    files: [],
    skipped: [...skipped],
    configs: [],
    totals: { files: 0, changed: 0, rewritten: 0, todo: 0, errors: 0, skipped: 0 },
  };
  // The project's path aliases (tsconfig/jsconfig `paths`, `baseUrl`): its own types told from packages'.
  const projectOf = projectImports((p) =>
    result.configs.push({ path: shownPath(p.config, cwd), warning: unreadWarning(p, cwd) }),
  );
  let done = 0;
  for (const real of files) {
    const shown = shownPath(real, cwd);
    const r = await processFile(real, shown, options, git, caught, adapters(real), {
      imports: projectOf(real),
      typesNamed: types.of(real),
    }).catch((e: unknown) => ({
      // An unreadable file (permissions, removed during the run) is that file's error; the run goes on.
      outcome: {
        path: shown,
        status: 'error',
        findings: [],
        error: `not read: ${e instanceof Error ? e.message : String(e)}`,
      } as FileOutcome,
      skipped: undefined,
    }));
    done++;
    if (r.skipped) result.skipped.push(r.skipped);
    else {
      result.files.push(r.outcome);
      options.onFile?.(r.outcome, done, files.length);
    }
  }
  const t = result.totals;
  t.files = result.files.length;
  t.skipped = result.skipped.length;
  for (const f of result.files) {
    if (f.status === 'changed' || f.status === 'written') t.changed++;
    if (f.status === 'error') t.errors++;
    for (const x of f.findings) x.kind === 'rewritten' ? t.rewritten++ : t.todo++;
  }
  return result;
}
