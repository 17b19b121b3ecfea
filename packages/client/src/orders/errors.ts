import { PartnerPrintError, type PartnerPrintErrorInit } from '../errors.ts';

/**
 * createOrder: the order's `customIdentifier` already belongs to an order with other content
 * (`orderReference`); nothing was created. Use another identifier, or read that order.
 */
export class IdentifierConflictError extends PartnerPrintError {
  override name = 'IdentifierConflictError';
  declare readonly customIdentifier: string;
  declare readonly orderReference: string | undefined;
  constructor(
    message: string,
    init: PartnerPrintErrorInit & { customIdentifier: string; orderReference?: string },
  ) {
    // The fields as the init gives them (the base assigns them all), with no copy of each of its own.
    super(message, { code: 'identifier_conflict', operation: 'createOrder', ...init });
  }
}

/**
 * createOrder with claims shared on Redis (`RedisOrderClaims`, @partner-print/client/redis): a claim could not be
 * taken because Redis was unavailable; nothing was posted.
 */
export class OrderClaimUnavailableError extends PartnerPrintError {
  static override readonly defaultCode: string = 'claim_unavailable';
  override name = 'OrderClaimUnavailableError';
}
