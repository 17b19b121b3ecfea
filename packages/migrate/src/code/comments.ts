import { indexTree, type N } from './ast.ts';

/**
 * The comments written inside a V1 call (on its options, its body's fields, its arguments). The rewrite
 * replaces the call with new code; a comment whose node the V2 call does not keep would be lost with it, so it
 * moves above the statement that holds the V2 call, in the order it was written.
 */
export interface InnerComment {
  comment: N;
  owner: N;
}

export function innerComments(call: N): InnerComment[] {
  const out: InnerComment[] = [];
  for (const owner of indexTree(call).nodes)
    for (const comment of owner.comments ?? []) out.push({ comment, owner });
  return out.sort((a, b) => (a.comment.start ?? 0) - (b.comment.start ?? 0));
}

/** Moves the comments whose node is no longer in `stmt` above it (before any TODO comment it gets). */
export function keepComments(comments: InnerComment[], stmt: N): void {
  const present = new Set(indexTree(stmt).nodes);
  const lost = comments.filter((c) => !present.has(c.owner));
  if (!lost.length) return;
  for (const { owner, comment } of lost) owner.comments = owner.comments.filter((c: N) => c !== comment);
  const moved = lost.map(({ comment }) => ({ ...comment, leading: true, trailing: false }));
  const leading = (stmt.comments ?? []).filter((c: N) => c.leading);
  const trailing = (stmt.comments ?? []).filter((c: N) => !c.leading);
  stmt.comments = [...leading, ...moved, ...trailing];
}
