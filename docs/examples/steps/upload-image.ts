import type { DemoStep } from './context.ts';
import { samplePng } from './sample-image.ts';

export const uploadImage: DemoStep = {
  title: 'Upload a print image (raw PNG bytes, no base64)',
  async run({ client, sandbox, log, state }) {
    const png = samplePng(48, 48, 1);
    state.image = await client.uploadImage(png);
    const info = sandbox.control.upload(state.image);
    log(`uploaded ${png.length} bytes → ${state.image} (${info.format}, ${info.width}×${info.height})`);
    const again = await client.uploadImage(new Blob([png]));
    log(
      `the same bytes again, as a Blob → ${again} (${again === state.image ? 'same reference' : 'new reference'})`,
    );
    const notAnImage = await client.uploadImage(new TextEncoder().encode('GIF89a…')).catch((e: Error) => e);
    log(`a GIF is refused before anything is sent: ${(notAnImage as Error).message}`);
  },
};
