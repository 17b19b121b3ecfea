/**
 * What the page session made in the sandbox, learnt from the exchanges and control actions, so a sample's
 * inputs (ORDER_REFERENCE, CLAIM_REFERENCE…) are the things earlier samples created.
 */
import type { Exchange } from './types.ts';

export interface Memory {
  /** Orders created in this session, oldest first. */
  orders: { reference: string; customIdentifier?: string }[];
  /** Order reference → its shipment references. */
  shipments: Map<string, string[]>;
  /** Shipment reference → the sandbox time it shipped. */
  shippedAt: Map<string, number>;
  /** Shipments a claim was filed on. */
  claimed: Set<string>;
  claims: { reference: string; status: string }[];
  renders: string[];
}

export function emptyMemory(): Memory {
  return {
    orders: [],
    shipments: new Map(),
    shippedAt: new Map(),
    claimed: new Set(),
    claims: [],
    renders: [],
  };
}

function parsed(body: string | undefined): Record<string, unknown> | undefined {
  if (!body?.startsWith('{')) return undefined;
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function field(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

/** Learns from one exchange: creations (POST 2xx) and retractions. */
export function learn(memory: Memory, exchange: Exchange): void {
  if (exchange.method !== 'POST' || exchange.status >= 300) return;
  const body = parsed(exchange.responseBody);
  switch (exchange.operationId) {
    case 'createOrder': {
      const reference = field(body?.order, 'reference');
      const customIdentifier = field(body?.order, 'customIdentifier');
      if (reference && !memory.orders.some((o) => o.reference === reference)) {
        memory.orders.push({ reference, ...(customIdentifier ? { customIdentifier } : {}) });
      }
      return;
    }
    case 'createPackageMissingClaim':
    case 'createItemIssuesClaim': {
      const reference = field(body?.claim, 'reference');
      const shipment = field(body?.claim, 'shipmentReference') ?? shipmentOfRequest(exchange.requestBody);
      if (reference) memory.claims.push({ reference, status: field(body?.claim, 'status') ?? 'pending' });
      if (shipment) memory.claimed.add(shipment);
      return;
    }
    case 'retractClaim': {
      const reference = exchange.path.split('/')[2];
      const claim = memory.claims.find((c) => c.reference === reference);
      if (claim) claim.status = 'retracted';
      return;
    }
    case 'createRender': {
      const reference = field(body?.render, 'reference');
      if (reference) memory.renders.push(reference);
      return;
    }
    default:
  }
}

function shipmentOfRequest(body: string | undefined): string | undefined {
  return field(parsed(body)?.claim, 'shipmentReference');
}

export function newest<T>(list: readonly T[]): T | undefined {
  return list[list.length - 1];
}
