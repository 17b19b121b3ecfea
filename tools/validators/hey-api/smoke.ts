// Run (with tsx) inside the directory @hey-api/openapi-ts generated: the second client talks to a sandbox server
// on 127.0.0.1 (paths of the repository's sandbox and sample image come as arguments). Prints one line per
// call and exits 1 when a call's status is not the one the spec leads to expect.
import { pathToFileURL } from 'node:url';
import { client } from './client.gen.ts';
import {
  createOrder,
  createRender,
  getOrder,
  getRenderMedia,
  listItems,
  lookupComposition,
  uploadImage,
} from './sdk.gen.ts';

interface SandboxServer {
  url: string;
  sandbox: {
    keys: { primary: string };
    seed: {
      stores: { combined: string };
      products: { print: string };
      scenes: { studio: string };
      perspectives: { studioFront: string };
    };
  };
  close(): Promise<void>;
}

interface Modules {
  startSandboxServer(options: { port: number; sandbox: { pageSize: number } }): Promise<SandboxServer>;
  samplePng(width?: number, height?: number, seed?: number): Uint8Array<ArrayBuffer>;
}

const failures: string[] = [];
function expectStatus(call: string, status: number | undefined, expected: number[]): void {
  const ok = status !== undefined && expected.includes(status);
  console.log(`${ok ? 'ok' : 'FAIL'} ${call} → ${status}`);
  if (!ok) failures.push(`${call} answered ${status}, expected ${expected.join(' or ')}`);
}

async function load(): Promise<Modules> {
  const [sandboxNode, sampleImage] = process.argv.slice(2);
  if (!sandboxNode || !sampleImage) throw new Error('usage: smoke.ts <sandbox node entry> <sample-image.ts>');
  const server = (await import(pathToFileURL(sandboxNode).href)) as Pick<Modules, 'startSandboxServer'>;
  const image = (await import(pathToFileURL(sampleImage).href)) as Pick<Modules, 'samplePng'>;
  return { ...server, ...image };
}

async function flow({ sandbox, url }: SandboxServer, samplePng: Modules['samplePng']): Promise<void> {
  client.setConfig({ baseUrl: url, auth: () => sandbox.keys.primary });
  let cursor: string | null | undefined;
  let pages = 0;
  do {
    const page = await listItems({ query: cursor ? { cursor } : {} });
    expectStatus(`listItems page ${++pages}`, page.response?.status, [200]);
    cursor = page.data?.nextCursor;
  } while (cursor && pages < 10);
  const image = await uploadImage({ body: new Blob([samplePng(32, 32, 7)]) });
  expectStatus('uploadImage', image.response?.status, [200]);
  const imageReference = image.data?.image.reference ?? '';
  const { stores, products, scenes, perspectives } = sandbox.seed;
  const order = await createOrder({
    body: {
      order: {
        storeReference: stores.combined,
        shippingKind: 'combined',
        orderlines: [{ productReference: products.print, imageReference, quantity: 1 }],
      },
    },
  });
  expectStatus('createOrder', order.response?.status, [200]);
  const read = await getOrder({ path: { orderReference: order.data?.order.reference ?? '' } });
  expectStatus('getOrder', read.response?.status, [200]);
  const composition = await lookupComposition({
    query: {
      sceneReference: scenes.studio,
      productReference: products.print,
      perspectiveReference: perspectives.studioFront,
    },
  });
  expectStatus('lookupComposition', composition.response?.status, [200]);
  const render = await createRender({
    body: { render: { compositionReference: composition.data?.composition.reference ?? '', imageReference } },
  });
  expectStatus('createRender', render.response?.status, [200]);
  const media = await getRenderMedia({
    path: { renderReference: render.data?.render.reference ?? '' },
    parseAs: 'blob',
  });
  expectStatus('getRenderMedia (pending)', media.response?.status, [202]);
}

const modules = await load();
const server = await modules.startSandboxServer({ port: 0, sandbox: { pageSize: 1 } });
try {
  await flow(server, modules.samplePng);
} finally {
  await server.close();
}
if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
