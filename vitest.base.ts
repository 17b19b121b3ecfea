// The one test configuration of every package: tests next to the code and flows in test/, type tests with
// vitest's typecheck. A package's vitest.config.ts states only what differs (a global setup, timeouts).
import { defineConfig, type ViteUserConfig } from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

export const packageTests = (overrides: TestOptions = {}) =>
  defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
      passWithNoTests: false,
      ...overrides,
    },
  });
