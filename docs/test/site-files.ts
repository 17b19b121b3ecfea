import { readFileSync } from 'node:fs';
import type { Manifest } from '../../tools/docs/lib/build.ts';
import type { JsonObject } from '../../tools/docs/lib/openapi.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';

/** What the build wrote next to the page: the manifest and the spec copy Redoc rendered. */
export function readManifest(): Manifest {
  return JSON.parse(readFileSync(PATHS.manifest, 'utf8')) as Manifest;
}

export function readBuiltSpec(): JsonObject {
  return JSON.parse(readFileSync(`${PATHS.work}/openapi.json`, 'utf8')) as JsonObject;
}

export function readBundledSpec(): JsonObject {
  return JSON.parse(readFileSync(`${PATHS.work}/openapi.bundled.json`, 'utf8')) as JsonObject;
}
