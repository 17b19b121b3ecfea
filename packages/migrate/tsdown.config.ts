import { libraryBuild, nodeBuildWithBin, packageBuild } from '../../tsdown.base.ts';

export default packageBuild(
  libraryBuild(['src/index.ts']),
  // The Node entry (file cache, streaming readers, runCli) and the bin; the sandbox is loaded only for
  // --sandbox, and only if installed. @babel/parser 8 is ESM only: the CommonJS build carries it.
  ...nodeBuildWithBin(
    { 'node/index': 'src/node/index.ts' },
    { 'node/cli': 'src/node/cli.ts' },
    { external: ['@partner-print/sandbox'], bundleInCjs: ['@babel/parser'] },
  ),
);
