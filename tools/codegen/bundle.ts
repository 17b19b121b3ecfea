import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CodegenConfig } from './config.ts';

const run = promisify(execFile);

export type OpenApiDocument = Record<string, unknown> & {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
};

/**
 * Bundles the split spec with the same Redocly CLI that lints it, so the lint and the generated output can
 * never disagree about how `$ref`s resolve.
 */
export async function bundleSpec(config: CodegenConfig): Promise<OpenApiDocument> {
  const bin = path.join(
    config.root,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'redocly.cmd' : 'redocly',
  );
  const { stdout } = await run(bin, ['bundle', config.api, '--ext', 'json'], {
    cwd: config.root,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error('redocly bundle printed no JSON document');
  return sortComponents(JSON.parse(stdout.slice(start)) as OpenApiDocument);
}

/** Redocly emits components in traversal order; sorting keeps the generated files stable under spec edits. */
function sortComponents(doc: OpenApiDocument): OpenApiDocument {
  if (!doc.components) return doc;
  const components: Record<string, Record<string, unknown>> = {};
  for (const kind of Object.keys(doc.components).sort()) {
    const entries = doc.components[kind]!;
    components[kind] = Object.fromEntries(
      Object.keys(entries)
        .sort()
        .map((name) => [name, entries[name]]),
    );
  }
  return { ...doc, components };
}
