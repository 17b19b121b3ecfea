export type { RedisScriptClient } from '@partner-print/client/redis';
export type { RedisCoalescerEvent } from './coalescer.ts';
export {
  CoalescedRoundError,
  createRedisCoalescer,
  RedisCoalescer,
  type RedisCoalescerOptions,
} from './coalescer.ts';
