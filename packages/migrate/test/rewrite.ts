import { expect } from 'vitest';
import { TODO_TAG } from '../src/code/todo.ts';
import { type CodeOptions, type TransformResult, transformSource } from '../src/code/transform.ts';

/** How many TODOs a rewritten file carries. */
export const todos = (s: string): number => s.split(TODO_TAG).length - 1;

/**
 * `transformSource` of `text`, held to the rewriter's idempotence: a second run over its output changes nothing
 * and adds no TODO. The first run's result, with the second's as `again`.
 */
export function rewriteTwice(
  text: string,
  file = 'a.ts',
  options: CodeOptions = {},
): TransformResult & { again: TransformResult } {
  const first = transformSource(text, file, options);
  const again = transformSource(first.output, file, options);
  expect(again.output).toBe(first.output);
  expect(todos(again.output)).toBe(todos(first.output));
  return { ...first, again };
}
