import type { N } from './ast.ts';

/** Where the TODO comments send the reader: the public migration guide. */
export const GUIDE_URL = 'https://partner-print.github.io/sdk/#/guide-migrating-from-v1';
export const TODO_TAG = 'TODO(partner-print v2):';

export function todoText(reason: string): string {
  return ` ${TODO_TAG} ${reason.replace(/\s+/g, ' ').replace(/\*\//g, '* /')} — ${GUIDE_URL}`;
}

/** Whether the statement already carries a TODO of this tool (any reason: one per statement). */
export function hasTodo(stmt: N): boolean {
  const all = [...(stmt.comments ?? []), ...(stmt.leadingComments ?? [])];
  return all.some((c: N) => c.leading !== false && String(c.value).includes(TODO_TAG));
}

/** Adds one line comment above the statement, after the comments already there; false when it has one. */
export function addTodo(stmt: N, reason: string): boolean {
  if (hasTodo(stmt)) return false;
  const comment = { type: 'CommentLine', value: todoText(reason), leading: true, trailing: false };
  stmt.comments = [...(stmt.comments ?? []), comment];
  return true;
}
