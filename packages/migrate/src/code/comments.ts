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

/**
 * The comments around a V1 call, in its function (or the file), outside the call: the rewrite merges statements
 * there into the V2 one (`const res = await fetch(…)`, the `!res.ok` guard, `await res.json();`), and their
 * comments would go with them.
 */
export function commentsAround(scope: N, call: N): InnerComment[] {
  const inside = new Set(innerComments(call).map((c) => c.comment));
  const out: InnerComment[] = [];
  for (const owner of indexTree(scope).nodes)
    for (const comment of owner.comments ?? []) if (!inside.has(comment)) out.push({ comment, owner });
  return out;
}

/**
 * Moves above `stmt` (in the order they were written, before any TODO comment it gets) the comments whose node is
 * no longer in it (`inner`, of the call) or no longer in the file (`around`: a statement merged into it), unless a
 * node of the file carries them still.
 */
export function keepComments(inner: InnerComment[], stmt: N, around: InnerComment[] = [], program?: N): void {
  const here = new Set(indexTree(stmt).nodes);
  const lost = inner.filter((c) => !here.has(c.owner));
  if (around.length && program) {
    const nodes = indexTree(program).nodes;
    const present = new Set(nodes);
    const carried = new Set(nodes.flatMap((n) => n.comments ?? []));
    lost.push(...around.filter((c) => !present.has(c.owner) && !carried.has(c.comment)));
  }
  if (!lost.length) return;
  for (const { owner, comment } of lost)
    if (owner.comments) owner.comments = owner.comments.filter((c: N) => c !== comment);
  const moved = lost.map(({ comment }) => ({ ...comment, leading: true, trailing: false }));
  const leading = (stmt.comments ?? []).filter((c: N) => c.leading);
  const trailing = (stmt.comments ?? []).filter((c: N) => !c.leading);
  // The statement's own comments of the source keep their place among the moved ones; those this run wrote (no
  // place in the source) stay last.
  const lines = moved[0]?.loc?.lines;
  const written = (c: N) => typeof c.start === 'number' && lines !== undefined && c.loc?.lines === lines;
  const ordered = [...leading.filter(written), ...moved].sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  stmt.comments = [...ordered, ...leading.filter((c: N) => !written(c)), ...trailing];
}
