// The shared check (../../shared/web-api.ts, copied here by run.ts) under moduleResolution node16,
// plus the Node-only entry points.
import { createServer } from 'node:http';
import { toNodeListener } from '@partner-print/callback/node';
import { type CliIO, createFileSkuCache, runCli } from '@partner-print/migrate/node';
import { type SandboxServer, startSandboxServer } from '@partner-print/sandbox/node';
import { handler } from './web-api.js';

export * from './web-api.js';

// Node entries.
export const listener = createServer(toNodeListener(handler));
export const cache = createFileSkuCache;
export const cli: (argv: string[], io: CliIO) => Promise<number> = runCli;
export const server = (): Promise<SandboxServer> => startSandboxServer({ port: 0 });
