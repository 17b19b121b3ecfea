// Node, Bun and Deno: run the flow and print its result as one JSON line. run.ts passes the hostile servers
// as `--hostile=<json>` (hostile.ts); Deno gets network access to those two ports only.
import { runFlow } from '../flow.ts';
import { parseTargets } from '../hostile.ts';

const runtime = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
const args = runtime.Deno?.args ?? runtime.process?.argv.slice(2) ?? [];
const hostile = args.find((a) => a.startsWith('--hostile='))?.slice('--hostile='.length);
const result = await runFlow(parseTargets(hostile));
console.log(`FLOW_RESULT ${JSON.stringify(result)}`);
