import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, found from this file so every entry point works from any working directory. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export const PATHS = {
  root: ROOT,
  redoclyConfig: join(ROOT, 'redocly.yaml'),
  spec: join(ROOT, 'spec/openapi.yaml'),
  specDir: join(ROOT, 'spec'),
  guides: join(ROOT, 'docs/guides'),
  images: join(ROOT, 'docs/guides/images'),
  examples: join(ROOT, 'docs/examples'),
  operationExamples: join(ROOT, 'docs/examples/operations'),
  dist: join(ROOT, 'docs/dist'),
  work: join(ROOT, 'docs/dist/.build'),
  html: join(ROOT, 'docs/dist/index.html'),
  manifest: join(ROOT, 'docs/dist/.build/manifest.json'),
  redocly: join(ROOT, 'node_modules/.bin/redocly'),
} as const;
