// @partner-print/client/redis: order claims shared through Redis (node-redis v4/v5, an optional peer
// dependency), so several processes creating orders with the same customIdentifiers create each once.

// Its options' check in milliseconds, shared with the in-process twins (the claims' rememberMs).
export { checkMs } from './options.ts';
// Defined with createOrder's other errors, so that @partner-print/client/errors has it without the Redis claims.
export { OrderClaimUnavailableError } from './orders/errors.ts';
export {
  type OrderClaimEvent,
  type RedisEvalClient,
  RedisOrderClaims,
  type RedisOrderClaimsOptions,
} from './redis/claims.ts';
// The Lua runner the fleet entries of @partner-print/callback and @partner-print/render share: a deadline per
// command and Redis's health, so a dead server makes callers fall back instead of hang.
export {
  type RedisAvailabilityEvent,
  type RedisScriptClient,
  replyNumber,
  ScriptRunner,
  type ScriptRunnerOptions,
} from './redis/script-runner.ts';
