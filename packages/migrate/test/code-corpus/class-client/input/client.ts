import axios, { type AxiosInstance } from 'axios';

export interface V1OrderLine {
  sku: string;
  quantity: number;
}

/** The shop's Partner Print client (V1). */
export class PartnerPrintClient {
  private readonly http: AxiosInstance;

  constructor(partnerCode: string, apiKey: string) {
    this.http = axios.create({
      baseURL: 'https://api.partner-print.example/v1',
      headers: { 'X-Partner-Code': partnerCode, 'X-Api-Key': apiKey },
    });
  }

  async createOrder(partnerReference: string, lines: V1OrderLine[]): Promise<string> {
    const body = { store_code: 'ACME1', shipping_kind: 'combined', partner_reference: partnerReference, orderlines: lines };
    const res = await this.http.post('/orders', body);
    return res.data.reference;
  }

  async orderStatus(reference: string) {
    const { data } = await this.http.get(`/orders/${reference}`);
    return data.status;
  }

  async cancel(reference: string): Promise<void> {
    await this.http.post(`/orders/${reference}/cancel-all-lines`);
  }
}
