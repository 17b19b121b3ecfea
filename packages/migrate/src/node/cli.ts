#!/usr/bin/env node
import { runCli } from './run.ts';

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  // First Ctrl-C: stop reading, let in-flight lines finish and save the resume state. Second: exit now.
  if (++interrupts > 1) process.exit(130);
  process.stderr.write('\nStopping after the lines in flight (Ctrl-C again to quit at once)…\n');
  controller.abort();
});
process.on('SIGTERM', () => controller.abort());

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
