import { snakeToCamel } from '../case.ts';
import { decodeBase64Image } from '../image.ts';
import { bare, isIdent, isString, type Link, type N } from './ast.ts';
import { parseStatementsCode } from './parse.ts';
import { fill } from './v2-calls.ts';
import type { Bindings } from './values.ts';

/**
 * V1 sends images as base64 text in JSON; V2 takes their bytes (`uploadImage`). An image written out in the
 * code (a string literal, or a constant of one) is decoded here, as `convertV1Order` decodes it where the code
 * runs: plain base64, base64url or a `data:…;base64,` URL, line breaks allowed, and only a JPEG or PNG. What
 * the rewritten code then runs is `atob` of the plain base64 — the literal's own text, or the constant with
 * the data-URL prefix sliced off and the base64url alphabet replaced — so the bytes uploaded are the ones
 * checked here. Anything else (a value known only at run time, another format) is not handled here.
 */
export interface StaticImage {
  /** The image's plain base64 (unpadded): equal keys are equal bytes. */
  key: string;
  /** Code of the bytes (`Uint8Array.from(atob(…), …)`) with `__pp0__` for `node`, when used. */
  bytes: string;
  node: N;
}

/** The whitespace `atob` skips (the forgiving base64 of the HTML standard); any other blocks the static path. */
const ATOB_SPACE = /[\t\n\f\r ]/g;
const DATA_URL = /^data:[^;,]*(?:;[^;,]*)*;base64,/i;

export function staticImage(image: N, b: Bindings): StaticImage | undefined {
  const value = b.resolve(image);
  if (!isString(value)) return undefined;
  const text: string = value.value;
  try {
    decodeBase64Image(text);
  } catch {
    return undefined;
  }
  const prefix = DATA_URL.exec(text)?.[0] ?? '';
  const payload = text.slice(prefix.length);
  if (/\s/.test(payload.replace(ATOB_SPACE, ''))) return undefined;
  const plain = payload.replace(ATOB_SPACE, '').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const url = /[-_]/.test(payload);
  const literal = isString(bare(image));
  // A literal is written out as its plain base64; a constant is converted where it is used.
  let expr = literal ? `'${plain}'` : '__pp0__';
  if (!literal && prefix) expr += `.slice(${prefix.length})`;
  if (!literal && url) expr += `.replace(/-/g, '+').replace(/_/g, '/')`;
  return { key: plain, bytes: `Uint8Array.from(atob(${expr}), (c) => c.charCodeAt(0))`, node: image };
}

interface Uploaded {
  name: string;
  /** The block the upload was declared in, and the declaration. */
  list: N[];
  decl: N;
}

/**
 * The uploads of static images in one file: each is declared once (`const artworkImage = await
 * client.uploadImage(…)`) above the statement that first needs it, and a later rewritten call in the same
 * block reuses it — one image sent twice in one flow (an order with two lines of it, a render then an order)
 * is uploaded once.
 */
export class ImageUploads {
  private readonly done = new Map<string, Uploaded[]>();

  constructor(
    private readonly client: string,
    private readonly freeName: (base: string) => string,
    private readonly releaseName: (name: string) => void = () => undefined,
  ) {}

  /**
   * The pending uploads of a call left as it is after all: nothing declares them, and their names are free again
   * (a later call's upload of the same image takes the name, not `…Image2` beside a name declared nowhere).
   */
  forget(pending: Pending): void {
    for (const { name } of pending) this.releaseName(name);
    pending.length = 0;
  }

  /**
   * The name the image's upload is bound to for a call in `stmt`, and what declares it (run `commit` when the
   * rewrite is made; nothing is declared for a call left as it is).
   */
  use(image: StaticImage, stmt: N | undefined, links: Map<N, Link>, pending: Pending): string {
    const list = stmt ? blockOf(stmt, links) : undefined;
    const before = (u: Uploaded) =>
      list === u.list && list.indexOf(u.decl) >= 0 && list.indexOf(u.decl) < list.indexOf(stmt);
    const earlier = (this.done.get(image.key) ?? []).find(before);
    if (earlier) return earlier.name;
    const queued = pending.find((p) => p.image.key === image.key);
    if (queued) return queued.name;
    const base = isIdent(bare(image.node))
      ? `${snakeToCamel(bare(image.node).name.toLowerCase())}Image`
      : 'image';
    const name = this.freeName(base);
    pending.push({ image, name });
    return name;
  }

  /** Declares the pending uploads above `stmt` (its leading comments move up with them). */
  commit(pending: Pending, stmt: N | undefined, links: Map<N, Link>, file: string): void {
    const list = stmt ? blockOf(stmt, links) : undefined;
    if (!pending.length) return;
    if (!list) throw new Error('an image upload has no statement to go above');
    const decls = pending.map(({ image, name }) => {
      const [decl] = parseStatementsCode(`const ${name} = 0;\n`, file) as N[];
      decl.declarations[0].init = fill(`await ${this.client}.uploadImage(${image.bytes})`, [image.node]);
      this.done.set(image.key, [...(this.done.get(image.key) ?? []), { name, list, decl }]);
      return decl;
    });
    const leading = (stmt.comments ?? []).filter((c: N) => c.leading);
    if (leading.length) {
      stmt.comments = stmt.comments.filter((c: N) => !c.leading);
      decls[0].comments = [...leading, ...(decls[0].comments ?? [])];
    }
    list.splice(list.indexOf(stmt), 0, ...decls);
  }
}

export type Pending = Array<{ image: StaticImage; name: string }>;

function blockOf(stmt: N, links: Map<N, Link>): N[] | undefined {
  const l = links.get(stmt);
  return l && l.index !== undefined ? l.parent[l.key] : undefined;
}
