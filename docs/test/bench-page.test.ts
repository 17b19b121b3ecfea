// `pnpm bench` writes each package's last run into docs/benchmarks.md: one block per package, replaced on
// the next run, added at the end of the package's section the first time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withBlock } from '../../tools/bench/page.ts';

const root = new URL('../..', import.meta.url).pathname;

const page = '# Benchmarks\n\n## sandbox\n\nnarrative\n\n## client\n\nclient narrative\n';

describe('the generated blocks of docs/benchmarks.md', () => {
  it('adds a block at the end of its package section, before the next one', () => {
    const text = withBlock(page, 'sandbox', 'run 1');
    expect(text).toContain(
      'narrative\n\n### The last run of `pnpm bench sandbox`\n\n<!-- pnpm bench: sandbox -->',
    );
    expect(text.indexOf('run 1')).toBeLessThan(text.indexOf('## client'));
    expect(text).toContain('client narrative');
  });

  it('replaces the block on the next run, and touches nothing else', () => {
    const once = withBlock(page, 'client', 'run 1');
    const twice = withBlock(once, 'client', 'run 2');
    expect(twice).not.toContain('run 1');
    expect(twice.replace('run 2', 'run 1')).toBe(once);
  });

  it('a package without a section gets one at the end', () => {
    expect(withBlock(page, 'render', 'r')).toMatch(
      /## render\n\n<!-- pnpm bench: render -->\nr\n<!-- end pnpm bench: render -->\n$/,
    );
  });
});

describe('docs/benchmarks.md as it stands', () => {
  const text = readFileSync(`${root}docs/benchmarks.md`, 'utf8');
  const sections = text.split(/^(?=## )/m);
  const benched = readdirSync(`${root}packages`).filter((name) =>
    existsSync(`${root}packages/${name}/bench/index.ts`),
  );

  it('has a section for every package with a bench (READMEs link to benchmarks.md#<name>)', () => {
    for (const name of benched) expect(text, name).toMatch(new RegExp(`^## ${name}$`, 'm'));
  });

  it("keeps each package's generated block inside that package's section", () => {
    for (const section of sections) {
      const names = [...section.matchAll(/^<!-- pnpm bench: (\S+) -->$/gm)].map((m) => m[1]);
      const heading = section.match(/^## (\S+)/)?.[1];
      for (const name of names) expect(heading).toBe(name);
    }
  });

  it('links the history of the figures, which exists', () => {
    expect(text).toContain('](benchmarks-history.md)');
    expect(existsSync(`${root}docs/benchmarks-history.md`)).toBe(true);
  });
});
