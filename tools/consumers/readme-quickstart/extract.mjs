// Writes the first TypeScript block under "## Quick start" of the installed client README, as it is, to
// quickstart.ts: what a partner copies from npm is what this project runs.
import { readFileSync, writeFileSync } from 'node:fs';

const readme = readFileSync('node_modules/@partner-print/client/README.md', 'utf8');
const section = readme.split(/^## Quick start$/m)[1];
const block = section && /```ts\n([\s\S]*?)```/.exec(section);
if (!block) throw new Error('no ```ts block under "## Quick start" in the client README');
writeFileSync('quickstart.ts', `${block[1]}\nexport {};\n`);
