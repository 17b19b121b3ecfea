import { register } from 'node:module';
register('../../../tools/bench/built-packages.mjs', import.meta.url);
await import(process.argv[2]);
