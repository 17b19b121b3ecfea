// A module resolution hook for benches that time the packages as partners install them: every
// `@partner-print/<name>[/<subpath>]` import resolves to the built file that the package's
// `publishConfig.exports` publishes for `import` (packages/<name>/dist/…), instead of the TypeScript
// sources the workspace's own `exports` point at. Registered by tools/bench/built.ts.
import { readFileSync } from 'node:fs';

const packages = new URL('../../packages/', import.meta.url);
/** The published `exports` of each package, read once. */
const published = new Map();

function builtFile(name, subpath) {
  let exports = published.get(name);
  if (exports === undefined) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(`${name}/package.json`, packages), 'utf8'));
      exports = manifest.publishConfig?.exports ?? null;
    } catch {
      exports = null;
    }
    published.set(name, exports);
  }
  const entry = exports?.[subpath];
  const file = typeof entry === 'string' ? entry : (entry?.import?.default ?? entry?.default);
  return typeof file === 'string' && file.endsWith('.js') ? new URL(`${name}/${file}`, packages) : undefined;
}

export async function resolve(specifier, context, next) {
  const match = /^@partner-print\/([^/]+)(\/.+)?$/.exec(specifier);
  const file = match && builtFile(match[1], `.${match[2] ?? ''}`);
  if (file) return { url: file.href, format: 'module', shortCircuit: true };
  return next(specifier, context);
}
