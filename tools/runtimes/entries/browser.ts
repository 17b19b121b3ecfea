// Chromium: the page loads this module; the runner reads the result from `window.__flowResult`.
import { runFlow } from '../flow.ts';

const target = globalThis as typeof globalThis & { __flowResult?: unknown };
runFlow().then(
  (result) => {
    target.__flowResult = result;
  },
  (error: unknown) => {
    target.__flowResult = { runtime: 'chromium', ok: false, steps: [], error: String(error) };
  },
);
