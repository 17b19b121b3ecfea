// Packs every publishable package the way `pnpm publish` would (publishConfig applied),
// then runs publint --strict and attw on the tarball, so what we check is what ships.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
const dirs = readdirSync(join(root, 'packages')).filter((name) => only.length === 0 || only.includes(name));
const out = mkdtempSync(join(tmpdir(), 'pp-pack-'));
const failures: string[] = [];

function run(cmd: string, args: string[], cwd: string): { ok: boolean; output: string } {
  try {
    return { ok: true, output: execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

for (const name of dirs) {
  const dir = join(root, 'packages', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    private?: boolean;
  };
  if (pkg.private) continue;
  const dest = join(out, name);
  const packed = run('pnpm', ['pack', '--pack-destination', dest], dir);
  if (!packed.ok) {
    failures.push(`${pkg.name}: pnpm pack failed\n${packed.output}`);
    continue;
  }
  const tarball = join(dest, readdirSync(dest).find((f) => f.endsWith('.tgz'))!);
  const publint = run('npx', ['publint', 'run', tarball, '--strict'], dir);
  const attw = run('npx', ['attw', tarball, '--profile', 'esm-only', '--format', 'ascii'], dir);
  const status = (ok: boolean) => (ok ? 'ok' : 'FAIL');
  console.log(`${pkg.name.padEnd(28)} publint ${status(publint.ok)}  attw ${status(attw.ok)}`);
  if (!publint.ok) failures.push(`${pkg.name}: publint\n${publint.output}`);
  if (!attw.ok) failures.push(`${pkg.name}: attw\n${attw.output}`);
}
rmSync(out, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`\n${failures.join('\n\n')}`);
  process.exit(1);
}
console.log('package checks passed');
