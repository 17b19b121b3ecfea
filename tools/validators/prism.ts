/**
 * Prism 5 as a validating proxy in front of the in-process sandbox while the demo, the README quickstart,
 * the render and callback examples and every operation sample of the docs site run (prism/flow.ts, in a
 * child process whose `@partner-print/sandbox` routes calls through Prism). Findings: a response Prism finds
 * invalid, a request the spec forbids that the sandbox accepts, a call Prism cannot route, an example that
 * fails, an operation no example called.
 */
import path from 'node:path';
import { exec, type ValidatorReport } from './exec.ts';

interface Violation {
  call: string;
  status: number;
  side: string;
  location: string;
  message: string;
}

interface FlowSummary {
  prismStartMs: number;
  outcomes: { name: string; ok: boolean; ms?: number; error?: string }[];
  validated: Record<string, number>;
  bypassed: Record<string, number>;
  violations: Violation[];
  refusedInvalidRequests: Violation[];
}

const MARK = 'VALIDATOR-SUMMARY ';

function describeViolation(v: Violation): string {
  return `${v.call} → ${v.status}: ${v.side} ${v.location} ${v.message}`.replace(/\s+/g, ' ');
}

/** `GET /v2/orders/{ref}` → `GET /orders/{…}`-shaped keys, to compare with the spec's operations. */
function operationsCalled(validated: Record<string, number>, operations: readonly string[]): string[] {
  const called = Object.keys(validated).map((call) => call.replace(' /v2/', ' /'));
  const matches = (operation: string, call: string) => {
    const [method, template] = operation.split(' ') as [string, string];
    const pattern = new RegExp(`^${method} ${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(call);
  };
  return operations.filter((operation) => !called.some((call) => matches(operation, call)));
}

export async function runPrism(document: string, operations: readonly string[]): Promise<ValidatorReport> {
  const start = performance.now();
  const dir = path.join(import.meta.dirname, 'prism');
  const { code, stdout, stderr } = await exec(process.execPath, [
    '--import',
    'tsx',
    '--import',
    path.join(dir, 'register.mjs'),
    path.join(dir, 'flow.ts'),
    document,
  ]);
  const line = stdout.split('\n').find((l) => l.startsWith(MARK));
  const ms = Math.round(performance.now() - start);
  if (!line) {
    return {
      name: 'prism',
      findings: [`the flow did not finish (exit ${code}): ${stderr.slice(-3000)}`],
      notes: [],
      ms,
    };
  }
  const summary = JSON.parse(line.slice(MARK.length)) as FlowSummary;
  const findings = [
    ...summary.violations.map(describeViolation),
    ...summary.outcomes.filter((o) => !o.ok).map((o) => `${o.name} failed: ${o.error?.split('\n')[0]}`),
    ...operationsCalled(summary.validated, operations).map((op) => `no example called ${op} through Prism`),
  ];
  const calls = Object.values(summary.validated).reduce((a, b) => a + b, 0);
  const notes = [
    `${calls} calls through Prism (${Object.keys(summary.validated).length} routes), ${summary.outcomes.length} examples, Prism started in ${summary.prismStartMs} ms`,
    `bypassed: ${JSON.stringify(summary.bypassed)}`,
    `deliberately invalid requests the sandbox refused (not findings): ${summary.refusedInvalidRequests.length}`,
    ...[...new Set(summary.refusedInvalidRequests.map(describeViolation))].map((line) => `  ${line}`),
  ];
  return { name: 'prism', findings, notes, ms };
}
