// The quick start lists the orders it can see: the one it created must be among them.
import { readFileSync } from 'node:fs';

const lines = readFileSync('out.txt', 'utf8').trim().split('\n');
if (!lines.some((line) => /^Order_\S+$/.test(line)))
  throw new Error(`no order reference printed:\n${lines.join('\n')}`);
console.log(`quick start ran: ${lines.length} order(s) listed`);
