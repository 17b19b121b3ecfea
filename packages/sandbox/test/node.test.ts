import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerScript } from '../../../test-utils/worker-script.ts';
import { startSandboxServer } from '../src/node/index.ts';
import { checkResponse } from './contract.ts';

describe('Node server', () => {
  // A partner's test starts the server beside its own code: @hono/node-server replaced the process's global
  // Request and Response with its own classes by default, for good, so `(await fetch(url)) instanceof Response`
  // turned false in the rest of the test run, and every Request the SDK's scheduler got became a copy.
  it("leaves the process's global Request, Response and Headers as they were", async () => {
    const before = { Request, Response, Headers, fetch };
    const server = await startSandboxServer({ port: 0 });
    try {
      expect({ Request, Response, Headers, fetch }).toEqual(before);
      expect(globalThis.Request).toBe(before.Request);
      expect(globalThis.Response).toBe(before.Response);
      const answer = await fetch(`${server.url}/claimcategories`);
      expect(answer).toBeInstanceOf(before.Response);
      await answer.body?.cancel();
    } finally {
      await server.close();
      Object.assign(globalThis, before);
    }
  });

  it('serves the documentation page at /docs when given one, and nothing there otherwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-docs-'));
    const file = join(dir, 'index.html');
    writeFileSync(file, '<!doctype html><title>Partner Print API</title>');
    const withDocs = await startSandboxServer({ port: 0, docsFile: file });
    const withoutDocs = await startSandboxServer({ port: 0 });
    try {
      expect(withDocs.docs).toBe(true);
      const page = await fetch(`${withDocs.origin}/docs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('<title>Partner Print API</title>');
      expect(withoutDocs.docs).toBe(false);
      expect((await fetch(`${withoutDocs.origin}/docs`)).status).toBe(404);
    } finally {
      await withDocs.close();
      await withoutDocs.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a --seed file whose options it does not take, and leaves no server listening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-seed-'));
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify({ pagesize: 5 }));
    const free = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    try {
      await expect(startSandboxServer({ port: free, seedFile: file })).rejects.toThrow(
        'pagesize is not an option of createSandbox',
      );
      // The port is free again: the refused server was closed, not left listening.
      const again = await startSandboxServer({ port: free });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the V2 API and the control API on 127.0.0.1 and closes cleanly', async () => {
    const server = await startSandboxServer({ port: 0, virtualTime: true });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
      const request = new Request(`${server.url}/claimcategories`, {
        headers: { 'X-Service-Secret-Key': server.sandbox.keys.primary },
      });
      const res = await fetch(request.clone());
      await checkResponse(request, res, { rateLimited: true });
      expect(res.status).toBe(200);
      const advanced = await fetch(`${server.origin}/_sandbox/clock/advance`, {
        method: 'POST',
        body: JSON.stringify({ seconds: 60 }),
      });
      expect(await advanced.json()).toMatchObject({ now: '2026-11-16T09:01:00.000Z' });
      // A dropped connection is a network error for a real client too.
      await fetch(`${server.origin}/_sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ path: '/items', kind: 'drop-before' }),
      });
      await expect(
        fetch(`${server.url}/items`, { headers: { 'X-Service-Secret-Key': server.sandbox.keys.primary } }),
      ).rejects.toThrow(TypeError);
      expect(
        (
          await fetch(`${server.url}/items`, {
            headers: { 'X-Service-Secret-Key': server.sandbox.keys.primary },
          })
        ).status,
      ).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('runs on real time with 1 s of jitter by default, and reads a seed file', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-seed-')), 'seed.json');
    writeFileSync(file, JSON.stringify({ seed: 'custom', pageSize: 3 }));
    const server = await startSandboxServer({ port: 0, seedFile: file });
    try {
      expect(server.sandbox.clock.kind).toBe('real');
      // The real clock reads the time between two readings of Date.now (no bound on a gap: a starved
      // process may stop between any two of them).
      const before = Date.now();
      const now = server.sandbox.clock.now();
      expect(now).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThanOrEqual(Date.now());
      const { keys } = await startSandboxServer({ port: 0 }).then(async (s) => {
        await s.close();
        return s.sandbox;
      });
      expect(server.sandbox.keys.primary).not.toBe(keys.primary);
    } finally {
      await server.close();
    }
  });

  it('the CLI prints the base URL and keys and stops on SIGTERM', async () => {
    // The CLI's sources bundled, run by node itself: the tsx command would stand between the signal and the
    // CLI, and kills a child that has not confirmed a relayed signal within 30 ms (exit 143 on a busy machine).
    const cli = workerScript(new URL('../src/node/cli.ts', import.meta.url));
    const child = spawn(process.execPath, [cli, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Stop with Ctrl+C')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
    });
    expect(out).toMatch(/base URL\s+http:\/\/127\.0\.0\.1:\d+\/v2/);
    expect(out).toMatch(/primary\s+sk_test_/);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }); // the suite's timeout (30 s), a hang's bound: pnpm test runs this suite in the idle class
});
