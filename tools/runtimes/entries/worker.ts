// Cloudflare workerd: a module worker whose fetch handler runs the flow and returns its result.
import { runFlow } from '../flow.ts';

export default {
  async fetch(): Promise<Response> {
    return Response.json(await runFlow());
  },
};
