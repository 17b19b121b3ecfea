// @partner-print/client/errors: every error class of the client (the Redis claims' too) and `isPartnerPrintError`,
// without the client.
// For code that only tells errors apart (the SDK's other packages, a partner's error handler): under Node, or in
// a CommonJS bundle, which takes a required module whole, the main entry loads the client, the scheduler and
// openapi-fetch with them. The classes are the main entry's own (one module), not copies.
export * from './errors.ts';
export { IdentifierConflictError, OrderClaimUnavailableError } from './orders/errors.ts';
export { AmbiguousOrderError, type OrderStep } from './orders/history.ts';
