import type {
  ClaimcategoryRecord,
  ClaimRecord,
  CompositionRecord,
  ItemRecord,
  OrderRecord,
  PerspectiveRecord,
  ProductgroupRecord,
  ProductRecord,
  RenderRecord,
  SceneRecord,
  ShipmentRecord,
  StoreRecord,
  UploadRecord,
} from './model.ts';
import { createRandom, ReferenceFactory } from './random.ts';
import { buildOrganization, type OrganizationDefinition, type OrganizationSeed } from './seed.ts';

function byReference<T extends { reference: string }>(list: readonly T[]): Map<string, T> {
  return new Map(list.map((x) => [x.reference, x]));
}

/** Everything one organization owns. */
export class Organization {
  readonly id: string;
  readonly name: string;
  readonly seed: OrganizationSeed;
  readonly stores: Map<string, StoreRecord>;
  readonly productgroups: Map<string, ProductgroupRecord>;
  readonly items: Map<string, ItemRecord>;
  readonly products: Map<string, ProductRecord>;
  readonly productsBySku: Map<string, ProductRecord> = new Map();
  readonly claimcategories: Map<string, ClaimcategoryRecord>;
  readonly scenes: Map<string, SceneRecord>;
  readonly perspectives: Map<string, PerspectiveRecord>;
  readonly compositions: Map<string, CompositionRecord>;
  readonly compositionsByTriple: Map<string, CompositionRecord> = new Map();

  readonly uploads: Map<string, UploadRecord> = new Map();
  readonly uploadsByHash: Map<string, UploadRecord> = new Map();
  readonly orders: Map<string, OrderRecord> = new Map();
  /** Orders in creation order; lists read it backwards (newest first). */
  readonly orderList: OrderRecord[] = [];
  /** Orders per custom identifier, oldest first (identifiers are not unique). */
  readonly ordersByCustomIdentifier: Map<string, OrderRecord[]> = new Map();
  readonly shipments: Map<string, ShipmentRecord> = new Map();
  readonly claims: Map<string, ClaimRecord> = new Map();
  readonly claimList: ClaimRecord[] = [];
  readonly renders: Map<string, RenderRecord> = new Map();
  readonly rendersByPair: Map<string, RenderRecord> = new Map();
  rendertokens = { weekStart: 0, used: 0 };
  rendertokenLimit: number;
  /** Media of catalog products, rendered on first request. */
  readonly productMedia: Map<string, Uint8Array> = new Map();

  constructor(definition: OrganizationDefinition, rendertokenLimit: number) {
    this.id = definition.id;
    this.name = definition.name;
    this.seed = definition.seed;
    const c = definition.catalog;
    this.stores = byReference(c.stores);
    this.productgroups = byReference(c.productgroups);
    this.items = byReference(c.items);
    this.products = byReference(c.products);
    for (const p of c.products) this.productsBySku.set(p.legacyItemSKU, p);
    this.claimcategories = byReference(c.claimcategories);
    this.scenes = byReference(c.scenes);
    this.perspectives = byReference(c.perspectives);
    this.compositions = byReference(c.compositions);
    for (const comp of c.compositions) {
      this.compositionsByTriple.set(
        `${comp.sceneReference}|${comp.productReference}|${comp.perspectiveReference}`,
        comp,
      );
    }
    this.rendertokenLimit = rendertokenLimit;
  }
}

export interface WorldOptions {
  seed: string;
  rendertokenLimit: number;
}

/** All organizations, keyed by secret key, plus the runtime reference factory. */
export class World {
  readonly organizations: Organization[];
  readonly byKey: Map<string, Organization> = new Map();
  readonly refs: ReferenceFactory;
  readonly keys: { primary: string; secondary: string; other: string };
  seq = 0;

  constructor(options: WorldOptions) {
    const a = buildOrganization(options.seed, 'A', 'Acme Prints', 'ACME', 2);
    const b = buildOrganization(options.seed, 'B', 'Blue Harbor Goods', 'BLUE', 1);
    this.organizations = [
      new Organization(a, options.rendertokenLimit),
      new Organization(b, options.rendertokenLimit),
    ];
    for (const [i, def] of [a, b].entries()) {
      for (const key of def.keys) this.byKey.set(key, this.organizations[i]!);
    }
    this.keys = { primary: a.keys[0]!, secondary: a.keys[1]!, other: b.keys[0]! };
    this.refs = new ReferenceFactory(createRandom(`${options.seed}/runtime`));
  }
}
