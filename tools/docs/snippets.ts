/**
 * Writes the TypeScript blocks of docs/guides/*.md and the package READMEs as modules into docs/.tmp/snippets, which
 * docs/tsconfig.json includes: `pnpm --filter @partner-print/docs typecheck` checks them against the packages.
 */
import { SNIPPETS_DIR, writeSnippetModules } from './lib/snippets.ts';

const count = writeSnippetModules();
console.log(`${count} guide and README code blocks written to ${SNIPPETS_DIR}`);
