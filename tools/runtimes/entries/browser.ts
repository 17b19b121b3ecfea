// Chromium: the page loads this module; the runner reads the result from `window.__flowResult`. run.ts passes
// the hostile servers in the page's query (`?hostile=<json>`); the page's own origin is a third one, so every
// request to them is a CORS request, as from a partner's web app.
import { runFlow } from '../flow.ts';
import { parseTargets } from '../hostile.ts';

const target = globalThis as typeof globalThis & { __flowResult?: unknown };
const run = async () => runFlow(parseTargets(new URLSearchParams(location.search).get('hostile')));
run().then(
  (result) => {
    target.__flowResult = result;
  },
  (error: unknown) => {
    target.__flowResult = { runtime: 'chromium', ok: false, steps: [], error: String(error) };
  },
);
