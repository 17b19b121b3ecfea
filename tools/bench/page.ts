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
