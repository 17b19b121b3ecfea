import { libraryBuild, nodeBuild, packageBuild } from '../../tsdown.base.ts';

// fast-png and thumbhash are ESM only: the CommonJS build carries them.
const bundleInCjs = ['fast-png', 'thumbhash'];

export default packageBuild(
  libraryBuild(['src/index.ts'], { bundleInCjs }),
  // The bin's module (node/cli) is ESM only: its top-level await has no CommonJS form, and a bin is never
  // required. Built with node/index, it shares its chunk.
  nodeBuild({ 'node/index': 'src/node/index.ts', 'node/cli': 'src/node/cli.ts' }, { format: ['esm'] }),
  nodeBuild({ 'node/index': 'src/node/index.ts' }, { format: ['cjs'], bundleInCjs }),
);
