// The type tests of every package (*.test-d.ts) and the type check of the whole repository, in one `tsc`
// over tsconfig.check.json: vitest's typecheck reports an error in a type test as that test's failure and
// any other error as a source error that fails the run. Each package's own `tsc -p tsconfig.json` also
// checks the sources of the packages it imports (their exports point at src/), so checking package by
// package checked openapi's generated types seven times; this checks every file once.
// Run by `pnpm typecheck:all` after the docs' snippets are extracted (they are part of the program).
// The checker is tsgo (@typescript/native-preview, TypeScript's compiler ported to Go): the same program,
// the same diagnostics format, 15 s of CPU against tsc's 47 s. A planted source error and a planted failing
// type test fail it as they fail tsc. What ships is still checked by TypeScript 5 where partners meet it:
// the consumer projects compile against the published .d.ts files with tsc (skipLibCheck off), and
// `pnpm typecheck` (package by package) runs tsc.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [],
    typecheck: {
      enabled: true,
      only: true,
      include: ['packages/*/src/**/*.test-d.ts', 'packages/*/test/**/*.test-d.ts'],
      tsconfig: './tsconfig.check.json',
      checker: 'tsgo',
    },
    passWithNoTests: false,
  },
});
