import { packageTests } from '../../vitest.base.ts';

export default packageTests({ globalSetup: ['test/global-setup.ts'] });
