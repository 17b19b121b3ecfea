import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spec } from '@partner-print/openapi';
import type { TestProject } from 'vitest/node';
import { documentedHeaders } from './spec-walk.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    contractDir: string;
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-contract-'));
  project.provide('contractDir', dir);
  return () => {
    const exercised = new Set<string>();
    for (const file of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) if (line) exercised.add(line);
    }
    rmSync(dir, { recursive: true, force: true });
    const rows: string[] = [];
    const missing: string[] = [];
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const method of METHODS) {
        const op = (item as Record<string, { operationId: string; responses: Record<string, unknown> }>)[
          method
        ];
        if (!op) continue;
        const statuses = Object.keys(op.responses).map((s) =>
          exercised.has(`${op.operationId} ${s}`) ? `${s}✓` : `${s}·`,
        );
        const any = Object.keys(op.responses).some((s) => exercised.has(`${op.operationId} ${s}`));
        if (!any) missing.push(op.operationId);
        const headers = documentedHeaders(op).map((h) =>
          exercised.has(`${op.operationId} header ${h}`) ? `${h}✓` : `${h}·`,
        );
        rows.push(
          `${any ? '✓' : '✗'} ${op.operationId.padEnd(40)} ${method.toUpperCase().padEnd(5)} ${path.padEnd(52)} ${statuses.join(' ')}  headers: ${headers.join(' ') || '–'}`,
        );
      }
    }
    for (const name of Object.keys(spec.webhooks)) {
      const key = `${name} (webhook) GET`;
      const hit = exercised.has(key);
      if (!hit) missing.push(`${name} (webhook)`);
      rows.push(
        `${hit ? '✓' : '✗'} ${`${name} (webhook)`.padEnd(40)} GET   ${'callback URL (query checked against the spec)'}`,
      );
    }
    console.log(
      `\nContract coverage (✓ exercised, · documented but not exercised; headers: each documented response header, ✓ when present and checked against its schema)\n${rows.join('\n')}\n`,
    );
    if (missing.length > 0 && process.env.SANDBOX_CONTRACT_PARTIAL !== '1') {
      // A teardown error alone does not change vitest's exit code.
      process.exitCode = 1;
      throw new Error(`Operations never exercised against the spec: ${missing.join(', ')}`);
    }
  };
}
