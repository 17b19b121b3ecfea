export type { RedisScriptClient } from '@partner-print/client/redis';
export type { RedisStoreEvent } from './store.ts';
export { RedisRenderStore, type RedisRenderStoreOptions } from './store.ts';
