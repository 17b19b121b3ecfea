import { libraryBuild, packageBuild } from '../../tsdown.base.ts';

export default packageBuild(
  libraryBuild({
    index: 'src/index.ts',
    lite: 'src/lite.ts',
    redis: 'src/redis.ts',
    otel: 'src/otel.ts',
    errors: 'src/errors-entry.ts',
  }),
);
