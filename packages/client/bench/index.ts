// `pnpm bench client`: per-request cost, bundle sizes and createOrder's counts (bench/per-request.ts). The
// per-request rows time the built packages, as partners install them, beside openapi-fetch as installed: the
// client, the scheduler and the sandbox resolve to their `dist/` (built first, turbo-cached). See
// tools/bench/built.ts for why.
import { useBuiltPackages } from '../../../tools/bench/built.ts';

useBuiltPackages('@partner-print/client');
await import('./per-request.ts');
