/**
 * Stands in for `@partner-print/sandbox` while the examples run under the validating proxy (see hooks.mjs):
 * the same exports, except that every sandbox created routes its API calls through Prism.
 */
import * as real from '../../../packages/sandbox/src/index.ts';
import { validatingFetch } from './route.ts';

export * from '../../../packages/sandbox/src/index.ts';

export function createSandbox(...args: Parameters<typeof real.createSandbox>): real.Sandbox {
  const sandbox = real.createSandbox(...args);
  const sandboxFetch = sandbox.fetch.bind(sandbox);
  const { origin } = new URL(sandbox.baseUrl);
  sandbox.fetch = validatingFetch((request) => sandboxFetch(request), origin);
  return sandbox;
}
