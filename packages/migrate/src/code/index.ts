// The code rewriter: Node only (it parses with Babel and reprints with recast, and reads and writes files).
export {
  type CodeMode,
  type FileOutcome,
  type MigrateCodeOptions,
  type MigrateCodeResult,
  migrateCode,
} from './run.ts';
export { GUIDE_URL, TODO_TAG } from './todo.ts';
export { type CodeFinding, type CodeOptions, type TransformResult, transformSource } from './transform.ts';
