import { defineConfig } from 'tsdown';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    platform: 'neutral',
    fixedExtension: false,
  },
  {
    entry: { 'node/index': 'src/node/index.ts', 'node/cli': 'src/node/cli.ts' },
    format: ['esm'],
    dts: true,
    platform: 'node',
    fixedExtension: false,
    clean: false,
  },
]);
