import { libraryBuild, nodeBuildWithBin, packageBuild } from '../../tsdown.base.ts';

// fast-png and thumbhash are ESM only: the CommonJS build carries them.
const bundleInCjs = ['fast-png', 'thumbhash'];

export default packageBuild(
  libraryBuild(['src/index.ts'], { bundleInCjs }),
  ...nodeBuildWithBin(
    { 'node/index': 'src/node/index.ts' },
    { 'node/cli': 'src/node/cli.ts' },
    { bundleInCjs },
  ),
);
