import type { N } from './ast.ts';

/**
 * A V2 expression under construction: code with `__ppN__` placeholders for the V1 nodes it keeps as they are
 * (`fill` puts them back), and whether it calls the run-time V1 adapter.
 */
export class Slots {
  readonly nodes: N[] = [];
  needsAdapter = false;

  /** The placeholder of a kept node. */
  slot(n: N): string {
    return `__pp${this.nodes.push(n) - 1}__`;
  }
}
