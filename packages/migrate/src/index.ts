export {
  AUDIT_RULES,
  type AuditCategory,
  type AuditFinding,
  type AuditRule,
  auditLine,
  auditSource,
  SNAKE_CASE_FIELDS,
} from './audit.ts';
export {
  detectV1Credentials,
  isV1ApiKeyHeader,
  isV1PartnerCodeHeader,
  V1_API_KEY_HEADER,
  V1_PARTNER_CODE_HEADER,
  type V1CredentialDetection,
  V2_AUTH_HEADER,
  V2_KEY_EXPLANATION,
} from './auth.ts';
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
  checkImageBytes,
  createImageUploader,
  type DecodedImage,
  decodeBase64Image,
  type ImageKind,
  type ImageUploader,
  InvalidImageError,
} from './image.ts';
export {
  createOrderReferenceResolver,
  LOOKUP_ORDER_PATH,
  lookupOrderByCustomIdentifier,
  type OrderReferenceResolution,
  type OrderReferenceResolverOptions,
  type ParsedOrderReference,
  parseOrderReference,
  V1_ORDER_CODE,
  V2_ORDER_REFERENCE,
} from './references.ts';
export {
  type CachedSku,
  createSkuResolver,
  LOOKUP_PRODUCT_PATH,
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
export {
  type ParsedLegacySku,
  type ParseLegacySkuOptions,
  parseLegacySku,
  type SkuReading,
  SUFFIXED_SKU_PATTERN,
  SUFFIXED_SKU_SINCE,
} from './sku.ts';
