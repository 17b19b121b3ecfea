// Compiled together with the client @hey-api/openapi-ts generated from the bundled spec (tools/validators):
// what issue 23 found missing must be visible to a second, independent generator too.
import { client } from './client.gen.ts';
import { createOrder, getRenderMedia, listItems, listScenes } from './sdk.gen.ts';

export async function usage(): Promise<void> {
  // A usable default base URL (the first server), not a literal `{base_url}`.
  const baseUrl: string | undefined = client.getConfig().baseUrl;
  void baseUrl;
  // Cursor pagination on every list.
  const items = await listItems({ query: { cursor: 'next' } });
  const cursor: string | null | undefined = items.data?.nextCursor;
  await listScenes({ query: cursor ? { cursor } : {} });
  await createOrder({
    body: {
      order: {
        storeReference: 'Store_8UD7G0KN8EZ2EOC4373C90HMXT',
        shippingKind: 'combined',
        orderlines: [{ productReference: 'Product_EK7ZHPBV3DGMZFQDP1AUWU5X8I', quantity: 1 }],
      },
    },
  });
  await getRenderMedia({ path: { renderReference: 'Render_JX0ZC5DZ5MP7Y6W2E1GVKZS2H4' }, parseAs: 'blob' });
}
