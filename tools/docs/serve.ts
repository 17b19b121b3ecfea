/**
 * `pnpm docs:serve [--port 4020] [--host 127.0.0.1]`: serves docs/dist (build it first with `pnpm run docs`).
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PATHS } from './lib/paths.ts';
import { serveDocs } from './server.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '4020' }, host: { type: 'string', default: '127.0.0.1' } },
});
if (!existsSync(PATHS.html)) {
  console.error('docs/dist/index.html is missing: run `pnpm run docs` first.');
  process.exit(1);
}
const site = await serveDocs({ port: Number(values.port), host: values.host });
console.log(`Docs at ${site.url} (Ctrl+C to stop)`);
const stop = () => {
  void site.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
