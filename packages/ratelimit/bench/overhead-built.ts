// The scheduler's cost per request (overhead.ts) in a process of its own, on the built packages as partners
// install them, beside openapi-fetch as installed (tools/bench/built.ts): run after the fleet and simulated
// rows in their process, it timed the sources through tsx in a heap and code those rows had left behind.
// Prints the result as one line of JSON for bench/index.ts.
import { useBuiltPackages } from '../../../tools/bench/built.ts';

useBuiltPackages('@partner-print/ratelimit');
const { overheadBench } = await import('./overhead.ts');
console.log(JSON.stringify(await overheadBench()));
