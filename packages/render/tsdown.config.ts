import { libraryBuild, packageBuild } from '../../tsdown.base.ts';

export default packageBuild(libraryBuild({ index: 'src/index.ts', 'redis/index': 'src/redis/index.ts' }));
