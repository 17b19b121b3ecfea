import { libraryBuild, packageBuild } from '../../tsdown.base.ts';

// thumbhash is ESM only: the CommonJS build carries it.
export default packageBuild(
  libraryBuild(
    { index: 'src/index.ts', 'redis/index': 'src/redis/index.ts' },
    { bundleInCjs: ['thumbhash'] },
  ),
);
