/** `tsx bench/simulated.ts`: only the simulated rows (bench/sim-rows.ts), without worker processes. */
import { simulatedRows } from './sim-rows.ts';

console.table(await simulatedRows());
