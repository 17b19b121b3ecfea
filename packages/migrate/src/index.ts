// The library entry: web-standard only. Every name here is documented in the README; the exports
// snapshot test (exports.test.ts) makes widening this list a deliberate change.
export { AUDIT_RULES, type AuditCategory, type AuditFinding, type AuditRule, auditSource } from './audit.ts';
export { detectV1Credentials, type V1CredentialDetection, V2_KEY_EXPLANATION } from './auth.ts';
export {
  camelToSnake,
  type FieldRename,
  fromV2Body,
  type KeyConversionOptions,
  RENAMED_FIELDS,
  snakeToCamel,
  toCamelDeep,
  toSnakeDeep,
  toV2Body,
  v1FieldName,
  v2FieldName,
} from './case.ts';
export type { MigrateClient } from './client.ts';
export {
  type ConversionError,
  type ConversionResult,
  type ConvertOptions,
  convertV1Order,
  type ReportAction,
  type ReportEntry,
  type SkuResolutionLike,
  type V2Address,
  type V2OrderDraft,
  type V2Orderline,
  type V2Orderlines,
  type V2OrderRequest,
} from './convert.ts';
export {
  ENDPOINT_MAP,
  type EndpointMapping,
  type HttpMethod,
  mapV1Endpoint,
  type V2Endpoint,
} from './endpoints.ts';
export {
  createImageUploader,
  type DecodedImage,
  decodeBase64Image,
  type ImageKind,
  type ImageUploader,
  InvalidImageError,
} from './image.ts';
export {
  createOrderReferenceResolver,
  lookupOrderByCustomIdentifier,
  type OrderReferenceResolution,
  type OrderReferenceResolverOptions,
  type ParsedOrderReference,
  parseOrderReference,
} from './references.ts';
export {
  type CachedSku,
  createSkuResolver,
  type ResolvedSku,
  type SharedItemInfo,
  type SkuCache,
  type SkuResolution,
  type SkuResolver,
  type SkuResolverOptions,
  type SkuResolverStats,
  UnknownSkuError,
  type UnresolvedSku,
} from './resolver.ts';
export { type ParsedLegacySku, type ParseLegacySkuOptions, parseLegacySku, type SkuReading } from './sku.ts';
export { createV1Adapter, type V1Adapter, type V1AdapterOptions } from './v1-adapter.ts';
