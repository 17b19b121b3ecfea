import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';

export interface CodegenConfig {
  root: string;
  /** The API name in redocly.yaml (`apis.<name>`), used for `redocly bundle <name>`. */
  api: string;
  specRoot: string;
  schemaOutput: string;
}

interface RedoclyConfig {
  apis?: Record<string, { root?: string; 'x-openapi-ts'?: { output?: string } }>;
}

/** redocly.yaml names every output, so the codegen reads its paths from there rather than hard-coding them. */
export async function loadCodegenConfig(root: string): Promise<CodegenConfig> {
  const file = path.join(root, 'redocly.yaml');
  const config = load(await readFile(file, 'utf8')) as RedoclyConfig;
  const entries = Object.entries(config.apis ?? {}).filter(([, api]) => api['x-openapi-ts']?.output);
  if (entries.length !== 1) {
    throw new Error(`${file}: expected exactly one api with x-openapi-ts.output, found ${entries.length}`);
  }
  const [name, api] = entries[0]!;
  if (!api.root) throw new Error(`${file}: apis.${name}.root is missing`);
  return {
    root,
    api: name,
    specRoot: path.resolve(root, api.root),
    schemaOutput: path.resolve(root, api['x-openapi-ts']!.output!),
  };
}
