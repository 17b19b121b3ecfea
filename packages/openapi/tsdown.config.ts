import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts', 'wire/index': 'src/wire/index.ts' },
  format: ['esm'],
  dts: true,
  platform: 'neutral',
  fixedExtension: false,
});
