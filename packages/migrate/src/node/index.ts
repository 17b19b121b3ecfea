export {
  type CodeFinding,
  type CodeMode,
  type CodeOptions,
  type FileOutcome,
  GUIDE_URL,
  type MigrateCodeOptions,
  type MigrateCodeResult,
  migrateCode,
  TODO_TAG,
  type TransformResult,
  transformSource,
} from '../code/index.ts';
export { auditDirectory } from './audit.ts';
export { createFileSkuCache, type FileSkuCache } from './file-cache.ts';
export {
  type JsonLine,
  readJsonLines,
  readSkuRecords,
  type SkuFileFormat,
  type SkuRecord,
  UsageError,
} from './files.ts';
export type { CliIO, OutStream, SandboxLike } from './io.ts';
export { deriveCustomIdentifier, type OrderLineReport, type OrderLineStatus } from './orders.ts';
export { runCli } from './run.ts';
export { readSkuMapping } from './sku-mapping.ts';
