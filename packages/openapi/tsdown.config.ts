import { libraryBuild, packageBuild } from '../../tsdown.base.ts';

export default packageBuild(libraryBuild({ index: 'src/index.ts', 'wire/index': 'src/wire/index.ts' }));
