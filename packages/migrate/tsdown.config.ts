import { libraryBuild, nodeBuild, packageBuild } from '../../tsdown.base.ts';

export default packageBuild(
  libraryBuild(['src/index.ts']),
  // The Node entry (file cache, streaming readers, runCli) and the bin; the sandbox is loaded only for
  // --sandbox, and only if installed.
  nodeBuild(
    { 'node/index': 'src/node/index.ts', 'node/cli': 'src/node/cli.ts' },
    { external: ['@partner-print/sandbox'] },
  ),
);
