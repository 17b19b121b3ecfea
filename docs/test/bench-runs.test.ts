// `pnpm bench --runs=N` writes every run of a package into its block: the spread, not one lucky run.
import { describe, expect, it } from 'vitest';
import { type BenchRun, runsBlock } from '../../tools/bench/page.ts';

const started = new Date('2026-11-27T16:00:00Z');
const run = (status: number, output: string, load = '0.50 / 0.40 / 0.30'): BenchRun => ({
  status,
  output,
  loadBefore: load,
  loadAfter: load,
});

describe('the block of several runs', () => {
  it('one run: the machine, the load around it and the verdict, then its output', () => {
    const block = runsBlock('pnpm bench client', started, '2 × CPU', [run(0, 'ratio 1.08\n')]);
    expect(block).toBe(
      'Written by `pnpm bench client` on 2026-11-27 16:00 UTC: 2 × CPU; load average (1 / 5 / 15 min) ' +
        '0.50 / 0.40 / 0.30 before, 0.50 / 0.40 / 0.30 after. Targets met.\n\n```text\nratio 1.08\n```',
    );
  });

  it('a target missed in one run of three is missed, with the count; every run is on the page', () => {
    const block = runsBlock('pnpm bench client --runs=3', started, '2 × CPU', [
      run(0, 'ratio 1.08'),
      run(1, 'ratio 1.12', '1.20 / 0.90 / 0.80'),
      run(0, 'ratio 1.09'),
    ]);
    expect(block).toContain('3 runs one after another. Targets MISSED: met in 2 of 3 runs.');
    for (const ratio of ['1.08', '1.12', '1.09']) expect(block).toContain(`ratio ${ratio}`);
    expect(block).toContain(
      '<details><summary>Run 2 of 3: load average 1.20 / 0.90 / 0.80 before, 1.20 / 0.90 / 0.80 after; targets MISSED</summary>',
    );
    // The last run is shown open, the earlier ones folded.
    expect(block.match(/<details>/g)).toHaveLength(2);
    expect(block).toMatch(/Run 3 of 3: .*targets met:\n\n```text\nratio 1\.09\n```$/);
  });

  it('met in every run', () => {
    const block = runsBlock('pnpm bench render --runs=2', started, 'm', [run(0, 'a'), run(0, 'b')]);
    expect(block).toContain('Targets met in every run.');
  });
});
