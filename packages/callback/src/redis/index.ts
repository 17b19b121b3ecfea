export {
  CoalescedRoundError,
  createRedisCoalescer,
  RedisCoalescer,
  type RedisCoalescerOptions,
} from './coalescer.ts';
export type { RedisCoalescerEvent, RedisScriptClient } from './runner.ts';
