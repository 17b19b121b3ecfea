// The demo's render step: a product mockup of the uploaded print image, saved to the demo's output
// directory, with its thumbhash placeholder printed (a PNG data URL, ready for <img src> while the
// full mockup loads).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderClient } from '@partner-print/render';
import { type Clock, type RenderProgressEvent, renderMockup } from '@partner-print/render';
import { samplePng } from './steps/sample-image.ts';

/** What the render step needs from the demo. */
export interface RenderStepContext {
  client: RenderClient;
  /** The sandbox's seeded references (sandbox.seed). */
  seed: {
    scenes: { studio: string };
    products: { print: string };
    perspectives: { studioFront: string };
  };
  /** The sandbox's virtual clock: the 60-second polls then take no real time. */
  clock?: Clock;
  /** Where the mockup is written. */
  outDir: string;
  /** An `Image_…` reference from an earlier step, or image bytes to upload. */
  image: string | Uint8Array;
  log?: (line: string) => void;
}

const describe = (e: RenderProgressEvent): string | undefined => {
  switch (e.type) {
    case 'composition':
      return `composition ${e.composition.reference} costs ${e.composition.tokenCost} rendertoken(s)`;
    case 'tokens':
      return `${e.rendertokens.remaining} of ${e.rendertokens.limit} rendertokens left this week`;
    case 'submitted':
      return `render ${e.renderReference} created`;
    case 'cache-hit':
      return `render ${e.renderReference} already known: no tokens spent`;
    case 'poll':
      return `poll ${e.attempt}: ${e.status}`;
    case 'warning':
      return `warning: ${e.message}`;
    default:
      return undefined;
  }
};

export async function renderStep(ctx: RenderStepContext): Promise<void> {
  const log = ctx.log ?? ((line: string) => console.log(line));
  const result = await renderMockup(ctx.client, {
    sceneReference: ctx.seed.scenes.studio,
    productReference: ctx.seed.products.print,
    perspectiveReference: ctx.seed.perspectives.studioFront,
    image: ctx.image,
    ...(ctx.clock ? { clock: ctx.clock } : {}),
    onProgress: (event) => {
      const line = describe(event);
      if (line) log(`  ${line}`);
    },
  });
  await mkdir(ctx.outDir, { recursive: true });
  const mockup = join(ctx.outDir, `mockup.${result.media.extension}`);
  const thumbnail = join(ctx.outDir, `mockup-thumbnail.${result.thumbnail.extension}`);
  await writeFile(mockup, result.media.bytes);
  await writeFile(thumbnail, result.thumbnail.bytes);
  log(`  saved ${mockup} (${result.media.size} bytes, ${result.media.mimeType}) and ${thumbnail}`);
  // The same composition and image again: the known render is reused, no rendertokens are spent.
  const again = await renderMockup(ctx.client, {
    sceneReference: ctx.seed.scenes.studio,
    productReference: ctx.seed.products.print,
    perspectiveReference: ctx.seed.perspectives.studioFront,
    image: result.imageReference,
    ...(ctx.clock ? { clock: ctx.clock } : {}),
  });
  log(
    `  rendered ${result.render.reference} for ${result.tokensSpent} rendertoken(s); asking again reuses ` +
      `${again.render.reference} for ${again.tokensSpent}`,
  );
  if (result.placeholder) {
    const html = join(ctx.outDir, 'mockup.html');
    await writeFile(
      html,
      `<!doctype html><title>Mockup</title><img width="320" src="${result.placeholder}" alt="placeholder"> <img width="320" src="mockup.${result.media.extension}" alt="mockup">\n`,
    );
    log(`  placeholder (${result.placeholder.length} characters, shown next to the mockup in ${html}):`);
    // The whole data URL is several kilobytes on one line; its start shows what it is.
    log(`  ${result.placeholder.slice(0, 96)}…`);
  }
}

/** The step as the demo's walkthrough lists it (`{ title, run(ctx) }` with the demo's context). */
export const renderDemoStep = {
  title: 'Render a product mockup (tokens spent once, 60-second polls on the virtual clock)',
  run(ctx: {
    client: RenderClient;
    sandbox: { clock: Clock };
    seed: RenderStepContext['seed'];
    outDir: string;
    log: (line: string) => void;
    state: { image?: string };
  }): Promise<void> {
    return renderStep({
      client: ctx.client,
      seed: ctx.seed,
      clock: ctx.sandbox.clock,
      outDir: ctx.outDir,
      image: ctx.state.image ?? samplePng(48, 48, 1),
      log: (line) => ctx.log(line.trimStart()),
    });
  },
};
