// docs/benchmarks.md's generated blocks: each package's last `pnpm bench` run, at the end of its section.

/** The page with `name`'s generated block replaced (or added at the end of its `## name` section). */
export function withBlock(text: string, name: string, block: string): string {
  const open = `<!-- pnpm bench: ${name} -->`;
  const close = `<!-- end pnpm bench: ${name} -->`;
  const whole = `${open}\n${block}\n${close}`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start !== -1 && end > start) return text.slice(0, start) + whole + text.slice(end + close.length);
  const heading = text.search(new RegExp(`^## ${name}\\s*$`, 'm'));
  if (heading === -1) return `${text.trimEnd()}\n\n## ${name}\n\n${whole}\n`;
  const next = text.slice(heading + 1).search(/^## /m);
  const at = next === -1 ? text.length : heading + 1 + next;
  return `${text.slice(0, at).trimEnd()}\n\n### The last run of \`pnpm bench ${name}\`\n\n${whole}\n\n${text.slice(at)}`;
}

/** One run of a package's bench: its exit status, its output and the load average around it. */
export interface BenchRun {
  status: number | null;
  output: string;
  loadBefore: string;
  loadAfter: string;
}

/**
 * The generated block of `runs` of one package's bench, run one after another: a header with the machine
 * and whether the targets were met in every run (a target is met only when it held in all of them), then
 * each run's output; all runs but the last folded, so that the page shows the spread without its length.
 */
export function runsBlock(command: string, started: Date, machine: string, runs: BenchRun[]): string {
  const when = `${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const met = runs.filter((r) => r.status === 0).length;
  const code = (output: string) => ['```text', output.trimEnd(), '```'];
  if (runs.length === 1) {
    const [run] = runs as [BenchRun];
    return [
      `Written by \`${command}\` on ${when}: ${machine}; load average (1 / 5 / 15 min) ${run.loadBefore} before, ${run.loadAfter} after. Targets ${met === 1 ? 'met' : 'MISSED'}.`,
      '',
      ...code(run.output),
    ].join('\n');
  }
  const verdict = met === runs.length ? 'met in every run' : `MISSED: met in ${met} of ${runs.length} runs`;
  const lines = [
    `Written by \`${command}\` on ${when}: ${machine}; ${runs.length} runs one after another. Targets ${verdict}.`,
  ];
  runs.forEach((run, i) => {
    const title = `Run ${i + 1} of ${runs.length}: load average ${run.loadBefore} before, ${run.loadAfter} after; targets ${run.status === 0 ? 'met' : 'MISSED'}`;
    if (i < runs.length - 1)
      lines.push('', `<details><summary>${title}</summary>`, '', ...code(run.output), '', '</details>');
    else lines.push('', `${title}:`, '', ...code(run.output));
  });
  return lines.join('\n');
}
