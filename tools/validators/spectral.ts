/** Spectral (`spectral:oas`) on the bundled spec: every result of any severity is a finding. */
import path from 'node:path';
import { bin, exec, TOOLS, type ValidatorReport } from './exec.ts';

interface SpectralResult {
  code: string;
  message: string;
  path: (string | number)[];
  severity: number;
}

const SEVERITY = ['error', 'warn', 'info', 'hint'];

export async function runSpectral(document: string): Promise<ValidatorReport> {
  const start = performance.now();
  const ruleset = path.join(TOOLS, 'validators', 'spectral.yaml');
  const { code, stdout, stderr } = await exec(bin(TOOLS, 'spectral'), [
    'lint',
    document,
    '--ruleset',
    ruleset,
    '--format',
    'json',
    '--fail-severity',
    'hint',
    '--quiet',
  ]);
  const json = stdout.slice(stdout.indexOf('['));
  let results: SpectralResult[];
  try {
    results = JSON.parse(json) as SpectralResult[];
  } catch {
    return {
      name: 'spectral',
      findings: [`spectral printed no JSON (exit ${code}): ${stderr || stdout}`.slice(0, 2000)],
      notes: [],
      ms: Math.round(performance.now() - start),
    };
  }
  const findings = results.map(
    (r) => `${SEVERITY[r.severity] ?? r.severity} ${r.code} at ${r.path.join('.')}: ${r.message}`,
  );
  if (code !== 0 && findings.length === 0) findings.push(`spectral exited ${code}: ${stderr}`.slice(0, 2000));
  return {
    name: 'spectral',
    findings,
    notes: [`spectral:oas, ${results.length} results`],
    ms: Math.round(performance.now() - start),
  };
}
