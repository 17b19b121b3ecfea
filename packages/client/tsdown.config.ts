import { libraryBuild, packageBuild } from '../../tsdown.base.ts';

export default packageBuild(libraryBuild(['src/index.ts', 'src/lite.ts', 'src/redis.ts', 'src/otel.ts']));
