import { libraryBuild, nodeBuild, packageBuild } from '../../tsdown.base.ts';

export default packageBuild(
  libraryBuild(['src/index.ts']),
  nodeBuild({ 'node/index': 'src/node/index.ts', 'node/cli': 'src/node/cli.ts' }),
);
