// Node, Bun and Deno: run the flow and print its result as one JSON line.
import { runFlow } from '../flow.ts';

const result = await runFlow();
console.log(`FLOW_RESULT ${JSON.stringify(result)}`);
