import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendToPrint } from './shop.ts';

// TODO(partner-print v2): this mocks the V1 API; the rewritten code calls V2, whose answers are shaped differently. Test it against @partner-print/sandbox (its fetch in process, or its server) instead of a V1 mock. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const server = setupServer(
  http.post('https://api.partner-print.example/v1/orders', () =>
    HttpResponse.json({ reference: 'ACME1-77', status: 'received' }, { status: 201 }),
  ),
);

beforeAll(() => server.listen());
afterAll(() => server.close());

it('sends the order to print', async () => {
  expect(await sendToPrint('web-77', 'PROT-IP15-GLS')).toBe('ACME1-77');
});
