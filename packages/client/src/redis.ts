// @partner-print/client/redis: order claims shared through Redis (node-redis v4/v5, an optional peer
// dependency), so several processes creating orders with the same customIdentifiers create each once.
export {
  type OrderClaimEvent,
  OrderClaimUnavailableError,
  type RedisEvalClient,
  RedisOrderClaims,
  type RedisOrderClaimsOptions,
} from './redis/claims.ts';
