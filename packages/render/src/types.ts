/** The shapes this package reads. Undocumented fields are read defensively, never assumed. */
import type { Reference } from '@partner-print/openapi/wire';

export interface Link {
  reference: string;
}

export interface Composition {
  reference: Reference<'Composition'>;
  tokenCost: number;
  [field: string]: unknown;
}

export interface Scene {
  reference: string;
  name?: string;
  allowsProductPerspectives: boolean;
  compatibleProductgroups: Link[];
  perspectives: Link[];
  [field: string]: unknown;
}

export interface Perspective {
  reference: string;
  name?: string;
  output?: { widthPx: number; heightPx: number; format: string };
  scenes: Link[] | null;
  products: unknown[] | null;
  [field: string]: unknown;
}

export interface RenderFileInfo {
  mimeType: string;
  extension: string;
  size: number;
}

export type RenderStatus = 'pending' | 'completed' | 'failed' | (string & {});

export interface Render {
  reference: Reference<'Render'>;
  compositionReference: string;
  imageReference: string;
  status: RenderStatus;
  thumbhash?: string | null;
  media?: RenderFileInfo | null;
  thumbnail?: RenderFileInfo | null;
  created: string;
  completed?: string | null;
}

export interface Rendertokens {
  used: number;
  limit: number;
  remaining: number;
  /** ISO 8601 with an offset, e.g. `2026-11-23T00:00:00+01:00`. */
  resets: string;
}

/** A downloaded render file: the bytes plus what the render says about them. */
export interface RenderFile {
  bytes: Uint8Array;
  mimeType: string;
  extension: string;
  size: number;
}

/** Image bytes as `uploadImage` accepts them, or an `Image_…` reference of an image already uploaded. */
export type ImageInput = string | Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array>;
