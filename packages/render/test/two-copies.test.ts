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
  renderMany,
  renderMockup,
} from '../src/index.ts';

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
