import { createClient } from '@partner-print/client';
import { expect } from 'vitest';
import { TODO_TAG } from '../src/code/todo.ts';
import { type CodeOptions, type TransformResult, transformSource } from '../src/code/transform.ts';
import { createV1Adapter } from '../src/index.ts';
import type { newSandbox } from './helpers.ts';

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

/**
 * Runs a (rewritten or V1) module's `f(...args)`: its `fetch` is `v1Fetch` (answering as V1 does), and the V2
 * client a rewrite made is the sandbox's, after checking the base URL the rewrite gave it.
 */
export function runModule(
  code: string,
  v1Fetch: (input: string, init?: { method?: string }) => Promise<Response>,
  sandbox: ReturnType<typeof newSandbox>,
  args: unknown[],
): Promise<unknown> {
  const v2Client = (options: { baseUrl: string }) => {
    expect(options.baseUrl).toBe('https://api.partner-print.example/v2');
    return createClient({ secretKey: sandbox.keys.primary, baseUrl: sandbox.baseUrl, fetch: sandbox.fetch });
  };
  const body = code
    .replace(/^import \{ createClient \} from '@partner-print\/client';$/m, '')
    .replace(/^import \{ createV1Adapter \} from '@partner-print\/migrate';$/m, '')
    .replace(/^export /gm, '');
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor;
  const load = new AsyncFunction(
    'createClient',
    'createV1Adapter',
    'fetch',
    'process',
    'args',
    `${body}\nreturn f(...args);`,
  );
  return load(v2Client, createV1Adapter, v1Fetch, { env: { PP_KEY: 'k' } }, args);
}
