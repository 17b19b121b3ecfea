import { libraryBuild, packageBuild } from '../../tsdown.base.ts';

// The bucket arithmetic's constants (tuning.ts) inlined where they are used, as the sources' bundlers do: the
// published modules then hold the numbers, not a variable per constant (nor the Redis store's table of them).
export default packageBuild(
  libraryBuild(['src/index.ts', 'src/redis.ts'], { inputOptions: { optimization: { inlineConst: true } } }),
);
