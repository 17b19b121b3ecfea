import type { PartnerPrintClient } from '@partner-print/client';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type CompositionNotFoundError,
  IncompatibleCompositionError,
  InsufficientRendertokensError,
  type NotFoundError,
  plan,
  type RenderFile,
  type RenderManyResult,
  type RenderStore,
  type RendertokenLimitError,
  renderMany,
  renderMockup,
} from './index.ts';

declare const client: PartnerPrintClient;

describe('types', () => {
  it('takes the client as it is and returns files and a placeholder', async () => {
    const result = await renderMockup(client, {
      sceneReference: 'Scene_x',
      productReference: 'Product_x',
      perspectiveReference: 'Perspective_x',
      image: new Uint8Array(),
    });
    expectTypeOf(result.media).toEqualTypeOf<RenderFile>();
    expectTypeOf(result.placeholder).toEqualTypeOf<string | null>();
    expectTypeOf(result.tokensSpent).toBeNumber();
  });

  it('requires the three references and an image', () => {
    // @ts-expect-error image is required
    renderMockup(client, { sceneReference: 's', productReference: 'p', perspectiveReference: 'v' });
  });

  it('keeps one error hierarchy', () => {
    expectTypeOf<IncompatibleCompositionError>().toExtend<CompositionNotFoundError>();
    expectTypeOf<CompositionNotFoundError>().toExtend<NotFoundError>();
    expectTypeOf<InsufficientRendertokensError>().toExtend<RendertokenLimitError>();
    expectTypeOf(IncompatibleCompositionError).toBeConstructibleWith(
      { sceneReference: 's', productReference: 'p', perspectiveReference: 'v' },
      { reason: 'productgroup-not-compatible', message: 'm' },
    );
    expectTypeOf(InsufficientRendertokensError).toBeConstructibleWith({
      required: 2,
      remaining: 1,
      limit: 10,
      resetsAt: new Date(),
      now: 0,
    });
  });

  it('accepts sync and async stores', () => {
    const map = new Map<string, string>();
    expectTypeOf({
      get: (k: string) => map.get(k),
      set: (k: string, v: string) => map.set(k, v),
    }).toExtend<RenderStore>();
    expectTypeOf({
      get: async (_k: string) => null,
      set: async (_k: string, _v: string) => {},
    }).toExtend<RenderStore>();
  });

  it('types batch results', async () => {
    const { results } = await renderMany(client, []);
    expectTypeOf(results).toEqualTypeOf<RenderManyResult[]>();
    const p = await plan(client, []);
    expectTypeOf(p.resetsAt).toEqualTypeOf<Date>();
  });
});
