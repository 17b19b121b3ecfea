export type { RedisScriptClient, RedisStoreEvent } from './runner.ts';
export { RedisRenderStore, type RedisRenderStoreOptions } from './store.ts';
