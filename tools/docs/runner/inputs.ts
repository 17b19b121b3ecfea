/**
 * A sample's inputs (`process.env`): values from the sandbox's seed, then what the page session made —
 * made first when missing, each such step reported (running another sample, a control action). Web-standard.
 */
import type { Sandbox } from '../../../packages/sandbox/src/index.ts';
import { type Memory, newest } from './memory.ts';
import type { RunEvent, RunnableSample } from './types.ts';

const HOUR = 3_600_000;

type Emit = (event: RunEvent) => void;

/** Values from the sandbox's seed, by the name a sample reads them under. */
export function seeded(sandbox: Sandbox, shopOrderNumber: number): Record<string, string> {
  const seed = sandbox.seed;
  return {
    PARTNER_PRINT_SECRET_KEY: sandbox.keys.primary,
    PARTNER_PRINT_BASE_URL: sandbox.baseUrl,
    STORE_REFERENCE: seed.stores.dropship,
    COMBINED_STORE_REFERENCE: seed.stores.combined,
    STORE_CODE: seed.storeCodes.dropship,
    PRODUCT_REFERENCE: seed.products.print,
    NON_PRINT_PRODUCT_REFERENCE: seed.products.nonPrint,
    PRODUCTGROUP_REFERENCE: seed.productgroups.phoneCases,
    COMPOSITION_REFERENCE: seed.compositions.available,
    SCENE_REFERENCE: seed.scenes.studio,
    PERSPECTIVE_REFERENCE: seed.perspectives.studioFront,
    LEGACY_ITEM_SKU: seed.legacySkus.printNew,
    PLAIN_LEGACY_SKU: seed.legacySkus.print,
    NON_PRINT_LEGACY_SKU: seed.legacySkus.nonPrint,
    SHOP_ORDER_NUMBER: String(shopOrderNumber),
  };
}

export interface InputDeps {
  sandbox: Sandbox;
  memory: Memory;
  /** Runs another operation's sample first, reporting why; rejects when it failed. */
  prerequisite(operationId: string, why: string, emit: Emit): Promise<void>;
}

export class Inputs {
  constructor(private readonly deps: InputDeps) {}

  /** The sample's `process.env`. */
  async prepare(
    sample: RunnableSample,
    shopOrderNumber: number,
    emit: Emit,
  ): Promise<Record<string, string>> {
    const env = seeded(this.deps.sandbox, shopOrderNumber);
    const wants = (name: string) => sample.env.includes(name);
    const calls = (operationId: string) =>
      sample.operationId === operationId || (sample.uses?.includes(operationId) ?? false);
    if (wants('SHIPMENT_REFERENCE')) {
      // The package-missing claim's own sample gets a shipment old enough; a guide block that files a claim
      // gets one without a claim, whatever its age (the guide's error example wants the 48-hour refusal).
      const claim =
        sample.operationId === 'createPackageMissingClaim'
          ? 'aged'
          : calls('createItemIssuesClaim') || calls('createPackageMissingClaim')
            ? 'any-age'
            : 'no';
      const { orderReference, shipmentReference } = await this.aShipment(emit, claim);
      env.ORDER_REFERENCE = orderReference;
      env.SHIPMENT_REFERENCE = shipmentReference;
    } else if (wants('ORDER_REFERENCE') || wants('CUSTOM_IDENTIFIER')) {
      const order = await this.anOrder(emit);
      env.ORDER_REFERENCE = order.reference;
      if (order.customIdentifier) env.CUSTOM_IDENTIFIER = order.customIdentifier;
    }
    if (wants('CLAIM_REFERENCE')) env.CLAIM_REFERENCE = await this.aClaim(emit, calls('retractClaim'));
    if (wants('RENDER_REFERENCE')) env.RENDER_REFERENCE = await this.aRender(emit);
    if (wants('MEDIA_FILENAME')) Object.assign(env, await this.productMedia());
    return env;
  }

  /** Control action: ships every unshipped line of the order. */
  ship(orderReference: string, emit: Emit): string {
    const { sandbox, memory } = this.deps;
    const { shipmentReference } = sandbox.control.ship(orderReference);
    memory.shipments.set(orderReference, [
      ...(memory.shipments.get(orderReference) ?? []),
      shipmentReference,
    ]);
    memory.shippedAt.set(shipmentReference, sandbox.clock.now());
    emit({ kind: 'step', text: `Sandbox control: shipped ${orderReference} → ${shipmentReference}.` });
    return shipmentReference;
  }

  /** Control action: moves the sandbox clock forward. */
  async advance(ms: number, emit: Emit): Promise<void> {
    const { sandbox } = this.deps;
    await sandbox.control.advance(ms);
    const hours = ms / HOUR;
    const amount = hours >= 1 ? `${Number(hours.toFixed(1))} h` : `${Math.round(ms / 1000)} s`;
    emit({
      kind: 'step',
      text: `Sandbox control: clock advanced ${amount}, now ${new Date(sandbox.clock.now()).toISOString()}.`,
    });
  }

  private async anOrder(emit: Emit): Promise<{ reference: string; customIdentifier?: string }> {
    const { memory } = this.deps;
    if (!newest(memory.orders))
      await this.deps.prerequisite('createOrder', 'No order in this session yet', emit);
    return newest(memory.orders)!;
  }

  /** The newest order's shipment; for a claim, one without a claim, 48 hours old when `aged`. */
  private async aShipment(emit: Emit, claim: 'no' | 'any-age' | 'aged') {
    const { memory, sandbox } = this.deps;
    let order = await this.anOrder(emit);
    let shipment = newest(memory.shipments.get(order.reference) ?? []);
    if (claim !== 'no' && shipment && memory.claimed.has(shipment)) {
      await this.deps.prerequisite('createOrder', `${shipment} already has a claim`, emit);
      order = newest(memory.orders)!;
      shipment = undefined;
    }
    shipment ??= this.ship(order.reference, emit);
    const age = sandbox.clock.now() - (memory.shippedAt.get(shipment) ?? sandbox.clock.now());
    if (claim === 'aged' && age < 48 * HOUR) {
      emit({ kind: 'step', text: 'A package-missing claim needs a shipment 48 hours old.' });
      await this.advance(49 * HOUR - age, emit);
    }
    return { orderReference: order.reference, shipmentReference: shipment };
  }

  private async aClaim(emit: Emit, pending: boolean): Promise<string> {
    const { memory } = this.deps;
    const claim = newest(memory.claims);
    if (!claim || (pending && claim.status !== 'pending')) {
      const why = claim
        ? `${claim.reference} is ${claim.status}, not pending`
        : 'No claim in this session yet';
      await this.deps.prerequisite('createPackageMissingClaim', why, emit);
    }
    return newest(memory.claims)!.reference;
  }

  private async aRender(emit: Emit): Promise<string> {
    const { memory } = this.deps;
    if (!newest(memory.renders))
      await this.deps.prerequisite('createRender', 'No render in this session yet', emit);
    return newest(memory.renders)!;
  }

  /** A product that has media and its first file, found by listing the products (not shown as a step). */
  private async productMedia(): Promise<{ PRODUCT_REFERENCE: string; MEDIA_FILENAME: string }> {
    const { sandbox } = this.deps;
    let cursor: string | null | undefined;
    do {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
      const response = await sandbox.fetch(
        new Request(`${sandbox.baseUrl}/products${query}`, {
          headers: { 'X-Service-Secret-Key': sandbox.keys.primary },
        }),
      );
      const page = (await response.json()) as {
        products?: { reference: string; media?: { filename?: string }[] }[];
        nextCursor?: string | null;
      };
      const found = page.products?.find((p) => p.media?.[0]?.filename);
      if (found) return { PRODUCT_REFERENCE: found.reference, MEDIA_FILENAME: found.media![0]!.filename! };
      cursor = page.nextCursor;
    } while (cursor);
    throw new Error('The sandbox has no product with media');
  }
}
