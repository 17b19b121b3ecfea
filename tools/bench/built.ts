// For a bench that times the packages as partners install them (their built `dist/`, not the sources tsx
// transforms): builds them (turbo, cached: a second run builds nothing) and registers the resolution hook
// (built-packages.mjs) that sends every later `@partner-print/*` import to the built file. Call it before the
// measured modules are imported (a static import is evaluated before the importing module's body: import
// them with `await import()` after this call).
//
// Why: tsx transforms the sources with esbuild's keepNames, which gives every named function made per call an
// `Object.defineProperty` (one per `get()` of the client, more in the scheduler) that the built packages do not
// have; the anchor, openapi-fetch, is loaded built from node_modules.
import { spawnSync } from 'node:child_process';
import { register } from 'node:module';

const root = new URL('../..', import.meta.url).pathname;

export function useBuiltPackages(filter: string): void {
  const built = spawnSync(
    'npx',
    ['turbo', 'run', 'build', `--filter=${filter}...`, '--output-logs=errors-only'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (built.status !== 0) throw new Error(`building ${filter} and its dependencies failed`);
  register('./built-packages.mjs', import.meta.url);
}
