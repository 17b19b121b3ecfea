import { quietly } from '@partner-print/openapi/wire';
import type { Composition, Render, Rendertokens } from './types.ts';

/** What `onProgress` hears, in order, during one `renderMockup`. */
export type RenderProgressEvent =
  | { type: 'composition'; composition: Composition }
  | { type: 'checked' }
  | { type: 'upload'; digest?: string | undefined }
  | { type: 'image'; imageReference: string }
  | { type: 'tokens'; rendertokens: Rendertokens; tokenCost: number }
  | { type: 'waiting-for-tokens'; resetsAt: Date; waitMs: number }
  // Each comment sits on its member's `type`: a comment between union members is not kept in declarations.
  | {
      /** A known render was reused from the store: no rendertokens spent. */
      type: 'cache-hit';
      renderReference: string;
    }
  | {
      /** Another call is already creating or polling this render; this call waits for it. */
      type: 'joined';
      key: string;
    }
  | {
      /** Another worker of the fleet holds the lease on this (composition, image): this call waits for its render. */
      type: 'leased-elsewhere';
      key: string;
    }
  | { type: 'submitted'; renderReference: string; tokenCost: number }
  | { type: 'poll'; renderReference: string; status: Render['status']; attempt: number }
  | { type: 'waiting'; renderReference: string; waitMs: number }
  | { type: 'download'; renderReference: string }
  | { type: 'completed'; renderReference: string }
  | { type: 'warning'; code: WarningCode; message: string };

export type WarningCode =
  | 'productgroup-unknown'
  | 'placeholder-invalid'
  | 'cache-read-failed'
  | 'cache-write-failed'
  | 'lease-lost'
  | 'lease-failed'
  | 'cached-render-missing';

export type ProgressListener = (event: RenderProgressEvent) => void;

/** Calls the listener, and keeps its mistakes away from the render. */
export function emitter(listener: ProgressListener | undefined): ProgressListener {
  if (!listener) return () => {};
  return (event) => quietly(() => listener(event));
}
