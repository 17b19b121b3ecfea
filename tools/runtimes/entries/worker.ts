// Cloudflare workerd: a module worker whose fetch handler runs the flow and returns its result. run.ts passes
// the hostile servers in the query (`?hostile=<json>`).
import { runFlow } from '../flow.ts';
import { parseTargets } from '../hostile.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    const hostile = new URL(request.url).searchParams.get('hostile');
    return Response.json(await runFlow(parseTargets(hostile)));
  },
};
