// A partner whose program holds two copies of @partner-print/client: its own, and the one render depends on
// (npm nests a second copy when the ranges differ, as 0.x carets do from one minor to the next; a test's fresh
// module graph does the same). Render is given the partner's client, whose errors are the other copy's: its
// 404 of lookup-composition must still become a CompositionNotFoundError (with the checks' explanation), and
// a batch must still reject that job rather than throw.
import { createSandbox } from '@partner-print/sandbox';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CompositionNotFoundError,
  IncompatibleCompositionError,
  MemoryRenderStore,
  renderCacheKey,
  renderMany,
  renderMockup,
} from '../src/index.ts';
import { pngBytes, setup, studioPrint } from './helpers.ts';

type Client = typeof import('@partner-print/client');
let partners: Client;

beforeAll(async () => {
  // The partner's copy: the same package evaluated again, with classes of its own.
  vi.resetModules();
  partners = await import('@partner-print/client');
});

const IMAGE = 'Image_00000000000000000000000000' as const;

function partnerSetup() {
  const sandbox = createSandbox({ rateLimits: false, jitter: 0 });
  const client = partners.createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: sandbox.fetch,
    clock: sandbox.clock,
  });
  return { sandbox, client, clock: sandbox.clock };
}

describe('render given a client of another copy of @partner-print/client', () => {
  it("is a copy of its own: render's errors extend other classes", () => {
    expect(Object.getPrototypeOf(CompositionNotFoundError)).not.toBe(partners.NotFoundError);
  });

  it('a combination that does not exist is an IncompatibleCompositionError, a NotFoundError of either copy', async () => {
    const { sandbox, client, clock } = partnerSetup();
    const missing = sandbox.seed.missingCombination as never as {
      sceneReference: `Scene_${string}`;
      productReference: `Product_${string}`;
      perspectiveReference: `Perspective_${string}`;
    };
    const error = await renderMockup(client as never, { ...missing, image: IMAGE, clock }).catch((e) => e);
    expect(error).toBeInstanceOf(IncompatibleCompositionError);
    expect(error).toBeInstanceOf(CompositionNotFoundError);
    expect(error).toBeInstanceOf(partners.NotFoundError);
    expect(partners.isPartnerPrintError(error)).toBe(true);
  });

  it('renderMany rejects the job that cannot render, and goes on', async () => {
    const { sandbox, client, clock } = partnerSetup();
    const missing = sandbox.seed.missingCombination as never as {
      sceneReference: `Scene_${string}`;
      productReference: `Product_${string}`;
      perspectiveReference: `Perspective_${string}`;
    };
    const { results } = await renderMany(client as never, [{ ...missing, image: IMAGE }], { clock });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'rejected' });
    expect((results[0] as { reason: unknown }).reason).toBeInstanceOf(CompositionNotFoundError);
  });
});

// Two copies of render itself (a library bundling another version) given one client: each kept its own
// in-flight renders and default store, so a mockup asked through both was paid for twice, at once or in turn.
describe('two copies of @partner-print/render given one client', () => {
  type Render = typeof import('../src/index.ts');
  let theirs: Render;
  beforeAll(async () => {
    vi.resetModules();
    theirs = await import('../src/index.ts');
  });

  it('pay once for a mockup asked through both, at once or one after the other', async () => {
    expect(theirs.renderMockup).not.toBe(renderMockup);
    const s = setup({ renderProcessingMs: 1_000 });
    const job = {
      ...studioPrint(s.sandbox.seed),
      image: await s.client.uploadImage(pngBytes(1)),
      clock: s.sandbox.clock,
    };
    const both = await Promise.all([renderMockup(s.client, job), theirs.renderMockup(s.client, job)]);
    expect(both.map((r) => r.tokensSpent).sort()).toEqual([0, 1]);
    const other = { ...job, image: await s.client.uploadImage(pngBytes(2)) };
    await renderMockup(s.client, other);
    expect((await theirs.renderMockup(s.client, other)).tokensSpent).toBe(0);
    expect(s.count('POST /renders')).toBe(2);
  });

  it('render anew, once, a stored render the service does not know, whichever copy polled it', async () => {
    const s = setup({ renderProcessingMs: 1_000 });
    const image = await s.client.uploadImage(pngBytes(1));
    const cache = new MemoryRenderStore();
    cache.set(renderCacheKey(s.sandbox.seed.compositions.available, image), `Render_${'0'.repeat(26)}`);
    const job = { ...studioPrint(s.sandbox.seed), image, clock: s.sandbox.clock, cache };
    const both = await Promise.all([renderMockup(s.client, job), theirs.renderMockup(s.client, job)]);
    expect(both.map((r) => r.render.status)).toEqual(['completed', 'completed']);
    expect(s.count('POST /renders')).toBe(1);
  });
});
