import { libraryBuild, nodeBuild, packageBuild } from '../../tsdown.base.ts';

export default packageBuild(
  libraryBuild(['src/index.ts']),
  // The Node entry (file cache, streaming readers, runCli) and the bin; the sandbox is loaded only for
  // --sandbox, and only if installed. The bin's module (node/cli) is ESM only: its top-level await has no
  // CommonJS form, and a bin is never required. Built with node/index, it shares its chunk.
  nodeBuild(
    { 'node/index': 'src/node/index.ts', 'node/cli': 'src/node/cli.ts' },
    { format: ['esm'], external: ['@partner-print/sandbox'] },
  ),
  // @babel/parser 8 is ESM only: the CommonJS build carries it.
  nodeBuild(
    { 'node/index': 'src/node/index.ts' },
    { format: ['cjs'], external: ['@partner-print/sandbox'], bundleInCjs: ['@babel/parser'] },
  ),
);
