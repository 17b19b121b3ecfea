/**
 * The runtime names of an entry point with their kinds (`name: class`, `name: function`, `name: object`, …),
 * sorted: what the packages' exports snapshot tests compare, so that widening a public surface is deliberate.
 */
export function exportSurface(entry: Record<string, unknown>): string[] {
  return Object.keys(entry)
    .sort()
    .map((name) => {
      const value = entry[name];
      if (typeof value !== 'function') return `${name}: ${typeof value}`;
      return `${name}: ${/^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function'}`;
    });
}
