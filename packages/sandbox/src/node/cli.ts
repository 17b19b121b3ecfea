#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandboxServer } from './index.ts';

const HELP = `Usage: partner-print-sandbox [--port 4010] [--host 127.0.0.1] [--seed FILE] [--virtual-time]

Starts a local imitation of the Partner Print V2 API and prints its base URL and seeded keys.
  --port, -p        port to listen on (default 4010; 0 picks a free one)
  --host            interface to bind (default 127.0.0.1)
  --seed FILE       JSON file with sandbox options (seed, rateLimits, pageSize, startTime, ...)
  --virtual-time    run on a virtual clock, advanced with POST /_sandbox/clock/advance
  --docs FILE       the SDK's documentation page (a single HTML file) to serve at /docs
                    (default: one found in a built SDK checkout above the working directory)
  --help, -h        show this help`;

function findBuiltDocs(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'docs', 'dist', 'index.html');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', short: 'p', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string' },
      'virtual-time': { type: 'boolean', default: false },
      docs: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`invalid --port ${values.port}`);
  const server = await startSandboxServer({
    port,
    host: values.host,
    seedFile: values.seed,
    virtualTime: values['virtual-time'],
    docsFile: values.docs ?? findBuiltDocs(process.cwd()),
  });
  const { keys, seed } = server.sandbox;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the sandbox`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Announced only once a signal stops the server cleanly: a supervisor (or a test) that signals as soon as
  // it reads this must not meet the default action, which would end the process before the server closes.
  console.log(`Partner Print sandbox listening
  base URL       ${server.url}
  control API    ${server.origin}/_sandbox
  docs           ${server.docs ? `${server.origin}/docs` : 'none (pass --docs FILE)'}
  clock          ${values['virtual-time'] ? 'virtual' : 'real'}
  keys           primary   ${keys.primary}   (organization A)
                 secondary ${keys.secondary}   (organization A)
                 other     ${keys.other}   (organization B)
  stores         combined ${seed.stores.combined}  dropship ${seed.stores.dropship}
Seed references: GET ${server.origin}/_sandbox. Stop with Ctrl+C.`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
