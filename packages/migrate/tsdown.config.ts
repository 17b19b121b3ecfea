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
    // The Node entry (file cache, streaming readers, runCli) and the bin.
    entry: { 'node/index': 'src/node/index.ts', 'node/cli': 'src/node/cli.ts' },
    format: ['esm'],
    dts: true,
    platform: 'node',
    fixedExtension: false,
    clean: false,
    // Loaded only for --sandbox, and only if installed.
    external: ['@partner-print/sandbox'],
  },
]);
