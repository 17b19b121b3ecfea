// The one build configuration of every package: ESM, declarations (Oxc, see below), neutral platform (web-standard code),
// `.js`/`.d.ts` names. A package's tsdown.config.ts states only its entries and what differs.
import { defineConfig, type UserConfig } from 'tsdown';

type Entry = UserConfig['entry'];

export const libraryBuild = (entry: Entry, overrides: UserConfig = {}): UserConfig => ({
  entry,
  format: ['esm'],
  // Declarations file by file with Oxc, without a type checker: the published sources hold an explicit type
  // on every exported declaration (TypeScript's isolatedDeclarations rules, which Oxc enforces: a missing
  // one fails the build). The checker's emit built a program per package over its workspace dependencies'
  // sources too, ~85 % of the build's CPU.
  dts: { oxc: true },
  platform: 'neutral',
  fixedExtension: false,
  ...overrides,
});

/** Node-only entries (CLIs, servers, files) next to the library's: built second, without cleaning dist. */
export const nodeBuild = (entry: Entry, overrides: UserConfig = {}): UserConfig =>
  libraryBuild(entry, { platform: 'node', clean: false, ...overrides });

export const packageBuild = (...configs: UserConfig[]) =>
  defineConfig(configs.length === 1 ? configs[0]! : configs);
