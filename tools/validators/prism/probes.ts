/**
 * Requests the spec forbids where the reference decides nothing and the spec states the sandbox's assumption
 * (issue 23, item 6). Sent through Prism like every other call: Prism must flag each request, and the sandbox
 * must refuse it with a 4xx; a 2xx means spec and sandbox disagree, and route.ts records it as a finding.
 */
import { stats } from './calls.ts';
import { createSandbox } from './sandbox-module.ts';

type Order = Record<string, unknown>;

const PROBES: { name: string; order: (seed: Seed) => Order }[] = [
  { name: 'empty customIdentifier', order: (s) => ({ ...dropship(s), customIdentifier: '' }) },
  {
    name: '256-character customIdentifier',
    order: (s) => ({ ...dropship(s), customIdentifier: 'x'.repeat(256) }),
  },
  {
    name: 'lowercase countryCode',
    order: (s) => ({ ...dropship(s), dropshipAddress: { city: 'Utrecht', countryCode: 'nl' } }),
  },
  { name: 'empty address', order: (s) => ({ ...dropship(s), dropshipAddress: {} }) },
  {
    name: 'unknown address field',
    order: (s) => ({ ...dropship(s), dropshipAddress: { city: 'Utrecht', floor: '3' } }),
  },
  {
    name: 'combined order with a dropshipAddress',
    order: (s) => ({ ...combined(s), dropshipAddress: { city: 'Utrecht' } }),
  },
];

interface Seed {
  stores: { combined: string; dropship: string };
  products: { nonPrint: string };
}

const orderlines = (s: Seed) => [{ productReference: s.products.nonPrint, quantity: 1 }];
const dropship = (s: Seed): Order => ({
  storeReference: s.stores.dropship,
  shippingKind: 'dropship',
  dropshipAddress: { city: 'Utrecht', countryCode: 'NL' },
  orderlines: orderlines(s),
});
const combined = (s: Seed): Order => ({
  storeReference: s.stores.combined,
  shippingKind: 'combined',
  orderlines: orderlines(s),
});

/** Sends every probe; throws when Prism did not see a request as invalid (the probe itself is wrong). */
export async function runProbes(): Promise<void> {
  const sandbox = createSandbox({ jitter: 0 });
  try {
    for (const probe of PROBES) {
      const flagged = stats.refusedInvalidRequests.length + stats.violations.length;
      const response = await sandbox.fetch(`${sandbox.baseUrl}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-secret-key': sandbox.keys.primary },
        body: JSON.stringify({ order: probe.order(sandbox.seed) }),
      });
      await response.arrayBuffer();
      if (stats.refusedInvalidRequests.length + stats.violations.length === flagged) {
        throw new Error(`probe "${probe.name}": Prism found the request valid; the probe tests nothing`);
      }
    }
  } finally {
    sandbox.close();
  }
}
