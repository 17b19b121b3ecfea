/**
 * Repeated problems, grouped: the same message on many lines is printed once, with a count and the line
 * ranges (`Unknown SKU ABC123P001 … — 14 lines: 3–5, 9, 12–20`). Shared by `skus` and `orders`.
 * Memory stays bounded: at most `maxGroups` distinct messages and `maxRanges` ranges each are kept;
 * the rest are counted.
 */
export interface WarningGroup {
  message: string;
  /** Lines with this message. */
  count: number;
  /** Inclusive line ranges, in the order the lines were added. */
  ranges: Array<[number, number]>;
  /** Ranges not kept (past `maxRanges`). */
  moreRanges: number;
}

export interface WarningGroupsOptions {
  maxGroups?: number;
  maxRanges?: number;
}

/** `3–5, 9, 12–20` (and `, … 4 more` when ranges were not kept). */
export function formatRanges(ranges: ReadonlyArray<readonly [number, number]>, more = 0): string {
  const text = ranges.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(', ');
  return more > 0 ? `${text}, … ${more} more` : text;
}

/** One group as a line: `line 5: <message>` or `lines 3–5, 9 (4 lines): <message>`. */
export function formatGroup(g: WarningGroup): string {
  const single = g.count === 1;
  const where = single
    ? `line ${g.ranges[0]?.[0] ?? '?'}`
    : `lines ${formatRanges(g.ranges, g.moreRanges)} (${g.count} lines)`;
  return `${where}: ${g.message}`;
}

export function createWarningGroups(options: WarningGroupsOptions = {}) {
  const maxGroups = options.maxGroups ?? 1000;
  const maxRanges = options.maxRanges ?? 12;
  const groups = new Map<string, WarningGroup>();
  let lines = 0;
  let ungrouped = 0;

  function extend(g: WarningGroup, line: number) {
    g.count++;
    const last = g.ranges.at(-1);
    if (last && (line === last[1] + 1 || line === last[1])) last[1] = line;
    else if (g.ranges.length < maxRanges) g.ranges.push([line, line]);
    else g.moreRanges++;
  }

  return {
    /** Records `message` for input line `line` (lines are added in file order). */
    add(line: number, message: string): void {
      lines++;
      const g = groups.get(message);
      if (g) extend(g, line);
      else if (groups.size < maxGroups)
        groups.set(message, { message, count: 1, ranges: [[line, line]], moreRanges: 0 });
      else ungrouped++;
    },
    /** The groups, most frequent first (ties in order of first appearance). */
    groups(): WarningGroup[] {
      return [...groups.values()].sort((a, b) => b.count - a.count);
    },
    /** Printable lines: at most `limit` groups, then one line saying how many more. */
    format(limit = 20, where?: string): string[] {
      const all = this.groups();
      const out = all.slice(0, limit).map(formatGroup);
      const restGroups = all.length - out.length;
      const restLines = all.slice(limit).reduce((n, g) => n + g.count, 0) + ungrouped;
      if (restGroups > 0 || ungrouped > 0) {
        out.push(`… and ${restLines} more lines with other problems${where ? `; see ${where}` : ''}`);
      }
      return out;
    },
    /** Lines with a problem. */
    get lines(): number {
      return lines;
    },
  };
}

export type WarningGroups = ReturnType<typeof createWarningGroups>;
