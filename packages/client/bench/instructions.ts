// A loop of N sequential `get()` calls of one variant, for counting instructions per call with callgrind,
// which the machine's load does not move. The transport answers with the sandbox's own answer to the same
// request, its `x-ratelimit` remaining count going down by one per answer as the server's would (so the
// scheduler reads a new limit field every time, as it does in production).
//
// Per call, once warm: the difference of two runs, e.g. N=3000 and N=10000, divided by 7,000:
//   BENCH_VARIANT=on BENCH_CALLS=3000 valgrind --tool=callgrind \
//     node --single-threaded --hash-seed=1 --random-seed=1 --import tsx bench/instructions.ts
// `--single-threaded` puts the optimizing compiler on the main thread, so it is counted: warm-up ends late
// (calls 1,000–3,000 still hold compilation) and a window shorter than several thousand calls moves by ±3 %.
// The fixed seeds make two runs of the same code agree within 0.1 %. bench/callgrind.ts runs both and splits off
// what V8's collector and compiler ran (a major GC inside one variant's window and not another's moves it 3–5 %).
import { benchSandbox, getVariants } from './fixture.ts';

const { sandbox, key, baseUrl, orderReference } = await benchSandbox();
const recorded = await sandbox.fetch(
  new Request(`${baseUrl}/orders/${orderReference}`, { headers: { 'X-Service-Secret-Key': key } }),
);
const body = await recorded.text();
const { status } = recorded;
const fields = [...recorded.headers];
sandbox.close();

let remaining = 999_999_998;
const transport = (_request: Request) => {
  const headers = fields.map(([name, value]): [string, string] =>
    name === 'x-ratelimit' ? [name, `"default";r=${remaining--};t=0`] : [name, value],
  );
  return Promise.resolve(new Response(body, { status, headers }));
};
const variants = getVariants({ key, baseUrl, orderReference }, transport);

const name = process.env.BENCH_VARIANT ?? 'on';
const make = variants[name];
if (!make) throw new Error(`BENCH_VARIANT: one of ${Object.keys(variants).join(', ')}`);
const run = make();
const calls = Number(process.env.BENCH_CALLS ?? 3000);
for (let i = 0; i < calls; i++) await run();
