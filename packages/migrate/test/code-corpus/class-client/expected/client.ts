import axios, { type AxiosInstance } from 'axios';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
// TODO(partner-print v2): the V1 API key was passed in where the calls ran (`apiKey`); this client reads one secret key, from process.env.PARTNER_PRINT_SECRET_KEY, when the module loads: every caller now shares that key (one per organization), and it must be set there (a Workers runtime has no process.env without nodejs_compat). — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export interface V1OrderLine {
  sku: string;
  quantity: number;
}

/** The shop's Partner Print client (V1). */
export class PartnerPrintClient {
  private readonly http: AxiosInstance;

  constructor(partnerCode: string, apiKey: string) {
    // TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
    this.http = axios.create({
      baseURL: 'https://api.partner-print.example/v1',
      headers: { 'X-Partner-Code': partnerCode, 'X-Api-Key': apiKey },
    });
  }

  async createOrder(partnerReference: string, lines: V1OrderLine[]): Promise<string> {
    const body = { store_code: 'ACME1', shipping_kind: 'combined', partner_reference: partnerReference, orderlines: lines };
    const res = (await partnerPrint.createOrder(await partnerPrintV1.toV2Order(body))).order;
    return res.reference;
  }

  async orderStatus(reference: string) {
    // TODO(partner-print v2): V1 call left as it is: its identifier may be a V1 order code (<store_code>-<number>), and V2 has no look-up by V1 order code (the custom-identifier look-up would find another order): use the Order_ reference V2 gives (its POST /orders answer, the callback's order_reference_v2) and a mapping of V1 codes for older orders; a partner reference goes through v1.orderReferenceByPartnerReference. Besides, it reads `status` of the V1 order answer, a string such as 'shipped'; in V2 an order's status is an object whose fields the reference does not show, so a comparison, a switch, a string method or whatever it is passed to would get an object. V2 answers GET /orders/{orderReference} with { order }: reference for order_reference, status as an object (its fields not shown), and shipment references; move this code to those by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
    const { data } = await this.http.get(`/orders/${reference}`);
    return data.status;
  }

  async cancel(reference: string): Promise<void> {
    // TODO(partner-print v2): V1 call left as it is: V1 cancel-all-lines is not available in V2. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
    await this.http.post(`/orders/${reference}/cancel-all-lines`);
  }
}
