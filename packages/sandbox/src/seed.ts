import type {
  ClaimcategoryRecord,
  CompositionRecord,
  ItemRecord,
  PerspectiveRecord,
  ProductgroupRecord,
  ProductRecord,
  SceneRecord,
  StoreRecord,
} from './model.ts';
import { createRandom, type Prefix, type Ref } from './random.ts';

/** References of one organization's seed data, by the role they play in tests and demos. */
export interface OrganizationSeed {
  organization: { id: string; name: string };
  stores: {
    /** A store with a combined (consolidated) shipping address. */
    combined: Ref<'Store'>;
    /** A store used for dropship orders (no combined address). */
    dropship: Ref<'Store'>;
    /** A store whose orders arrive through an integrator (callbacks carry via_store_code). */
    integrated: Ref<'Store'>;
  };
  storeCodes: { combined: string; dropship: string; integrated: string };
  productgroups: {
    phoneCases: Ref<'Productgroup'>;
    posters: Ref<'Productgroup'>;
    accessories: Ref<'Productgroup'>;
  };
  items: {
    /** Warehouse item shared by several products (legacy, new and new2). */
    shared: Ref<'Item'>;
    poster: Ref<'Item'>;
    protector: Ref<'Item'>;
  };
  itemSkus: { shared: string; poster: string; protector: string };
  products: {
    /** Print product created before 2026-03-22: legacyItemSKU equals the item SKU. */
    print: Ref<'Product'>;
    /** Print product created after 2026-03-22 sharing the item: `<sku>P001`. */
    printNew: Ref<'Product'>;
    /** A second new product on the same item: `<sku>P002`. */
    printNew2: Ref<'Product'>;
    poster: Ref<'Product'>;
    /** Non-print product (a screen protector): orderlines must not carry an image. */
    nonPrint: Ref<'Product'>;
    /** A deprecated product that can no longer be ordered. */
    unavailable: Ref<'Product'>;
  };
  legacySkus: { print: string; printNew: string; printNew2: string; poster: string; nonPrint: string };
  claimcategories: {
    packageMissing: Ref<'Claimcategory'>;
    /** evidenceRequired: true */
    damaged: Ref<'Claimcategory'>;
    /** evidenceRequired: true */
    printQuality: Ref<'Claimcategory'>;
    /** evidenceRequired: false */
    wrongItem: Ref<'Claimcategory'>;
  };
  scenes: {
    /** allowsProductPerspectives: true */
    studio: Ref<'Scene'>;
    /** allowsProductPerspectives: false */
    lifestyle: Ref<'Scene'>;
    /** private: true */
    private: Ref<'Scene'>;
  };
  perspectives: {
    /** Scene perspectives (products: null). */
    studioFront: Ref<'Perspective'>;
    studioAngled: Ref<'Perspective'>;
    lifestyleWide: Ref<'Perspective'>;
    privateFront: Ref<'Perspective'>;
    /** Product perspective of the print products (scenes: null). */
    productCloseup: Ref<'Perspective'>;
  };
  compositions: {
    /** studio + print + studioFront, tokenCost 1. */
    available: Ref<'Composition'>;
    /** studio + print + productCloseup (a product perspective on a scene that allows them), tokenCost 2. */
    productPerspective: Ref<'Composition'>;
    /** lifestyle + poster + lifestyleWide, tokenCost 5. */
    expensive: Ref<'Composition'>;
    /** lifestyle + print + lifestyleWide: exists but no longer available (410). */
    unavailable: Ref<'Composition'>;
  };
  /** A scene + product + perspective combination that does not exist (404). */
  missingCombination: {
    sceneReference: Ref<'Scene'>;
    productReference: Ref<'Product'>;
    perspectiveReference: Ref<'Perspective'>;
  };
}

export interface Catalog {
  stores: StoreRecord[];
  productgroups: ProductgroupRecord[];
  items: ItemRecord[];
  products: ProductRecord[];
  claimcategories: ClaimcategoryRecord[];
  scenes: SceneRecord[];
  perspectives: PerspectiveRecord[];
  compositions: Compositions;
}

export interface OrganizationDefinition {
  id: string;
  name: string;
  storeCodePrefix: string;
  keys: string[];
  seed: OrganizationSeed;
  catalog: Catalog;
}

const BEFORE_CUTOFF = Date.parse('2025-09-01T10:00:00Z');
const AFTER_CUTOFF = Date.parse('2026-05-04T10:00:00Z');

type NewRef = <P extends Prefix>(prefix: P) => Ref<P>;
type Three<T> = [T, T, T];

function seedStores(ref: NewRef, name: string, codePrefix: string): Three<StoreRecord> {
  return [
    {
      reference: ref('Store'),
      code: `${codePrefix}1`,
      name: `${name} Warehouse`,
      combinedAddress: {
        company: name,
        streetname: 'Keizersgracht',
        housenumber: '123',
        zipcode: '1015 CJ',
        city: 'Amsterdam',
        countryCode: 'NL',
        email: 'warehouse@example.com',
      },
      viaStoreCode: null,
      callbackUrl: '',
      nextOrderNumber: 100_001,
    },
    {
      reference: ref('Store'),
      code: `${codePrefix}2`,
      name: `${name} Webshop`,
      combinedAddress: null,
      viaStoreCode: null,
      callbackUrl: '',
      nextOrderNumber: 200_001,
    },
    {
      reference: ref('Store'),
      code: `${codePrefix}3`,
      name: `${name} Marketplace`,
      combinedAddress: null,
      viaStoreCode: 'INTEGRATOR1',
      callbackUrl: '',
      nextOrderNumber: 300_001,
    },
  ];
}

function seedProductgroups(ref: NewRef): Three<ProductgroupRecord> {
  return [
    { reference: ref('Productgroup'), name: 'Phone cases' },
    { reference: ref('Productgroup'), name: 'Posters' },
    { reference: ref('Productgroup'), name: 'Accessories' },
  ];
}

const SHARED_SKU = 'CASE-IP15-CLR';

function seedItems(ref: NewRef): Three<ItemRecord> {
  return [
    {
      reference: ref('Item'),
      sku: SHARED_SKU,
      logicalQuantity: 140,
      physicalQuantity: 152,
      productReferences: [],
    },
    {
      reference: ref('Item'),
      sku: 'POSTER-A2-MAT',
      logicalQuantity: 80,
      physicalQuantity: 80,
      productReferences: [],
    },
    {
      reference: ref('Item'),
      sku: 'PROT-IP15-GLS',
      logicalQuantity: 500,
      physicalQuantity: 512,
      productReferences: [],
    },
  ];
}

function seedProducts(ref: NewRef, groups: Three<ProductgroupRecord>, items: Three<ItemRecord>) {
  const [phoneCases, posters, accessories] = groups;
  const [sharedItem, posterItem, protectorItem] = items;
  const sharedSku = SHARED_SKU;
  const product = (
    productName: string,
    group: ProductgroupRecord,
    item: ItemRecord,
    legacyItemSKU: string,
    print: boolean,
    created: number,
    available = true,
  ): ProductRecord => {
    const p: ProductRecord = {
      reference: ref('Product'),
      name: productName,
      productgroupReference: group.reference,
      itemReference: item.reference,
      legacyItemSKU,
      print,
      available,
      created,
      media: ['front.png', 'back.png'],
    };
    item.productReferences.push(p.reference);
    return p;
  };
  const printProduct = product(
    'iPhone 15 clear case',
    phoneCases,
    sharedItem,
    sharedSku,
    true,
    BEFORE_CUTOFF,
  );
  const printNew = product(
    'iPhone 15 clear case, gloss print',
    phoneCases,
    sharedItem,
    `${sharedSku}P001`,
    true,
    AFTER_CUTOFF,
  );
  const printNew2 = product(
    'iPhone 15 clear case, matte print',
    phoneCases,
    sharedItem,
    `${sharedSku}P002`,
    true,
    AFTER_CUTOFF + 86_400_000,
  );
  const poster = product('Poster A2 matte', posters, posterItem, posterItem.sku, true, BEFORE_CUTOFF);
  const nonPrint = product(
    'iPhone 15 screen protector',
    accessories,
    protectorItem,
    protectorItem.sku,
    false,
    BEFORE_CUTOFF,
  );
  const unavailable = product(
    'iPhone 15 clear case, satin print (deprecated)',
    phoneCases,
    sharedItem,
    `${sharedSku}P003`,
    true,
    AFTER_CUTOFF + 2 * 86_400_000,
    false,
  );
  return { printProduct, printNew, printNew2, poster, nonPrint, unavailable };
}

type Products = ReturnType<typeof seedProducts>;

function seedClaimcategories(
  ref: NewRef,
): [ClaimcategoryRecord, ClaimcategoryRecord, ClaimcategoryRecord, ClaimcategoryRecord] {
  return [
    {
      reference: ref('Claimcategory'),
      name: 'Package missing',
      evidenceRequired: false,
      packageMissing: true,
    },
    { reference: ref('Claimcategory'), name: 'Damaged item', evidenceRequired: true, packageMissing: false },
    { reference: ref('Claimcategory'), name: 'Print quality', evidenceRequired: true, packageMissing: false },
    { reference: ref('Claimcategory'), name: 'Wrong item', evidenceRequired: false, packageMissing: false },
  ];
}

function seedPerspectives(ref: NewRef, products: Products) {
  const { printProduct, printNew, printNew2 } = products;
  const studioRef = ref('Scene');
  const lifestyleRef = ref('Scene');
  const privateRef = ref('Scene');
  const perspective = (
    perspectiveName: string,
    widthPx: number,
    heightPx: number,
    scenes: string[] | null,
    productRefs: string[] | null,
  ): PerspectiveRecord => ({
    reference: ref('Perspective'),
    name: perspectiveName,
    output: { widthPx, heightPx, format: 'png' },
    scenes,
    products: productRefs,
  });
  const studioFront = perspective('Studio front', 640, 480, [studioRef], null);
  const studioAngled = perspective('Studio angled', 480, 640, [studioRef, lifestyleRef], null);
  const lifestyleWide = perspective('Lifestyle wide', 800, 450, [lifestyleRef], null);
  const privateFront = perspective('Private front', 400, 400, [privateRef], null);
  const productCloseup = perspective('Case close-up', 400, 600, null, [
    printProduct.reference,
    printNew.reference,
    printNew2.reference,
  ]);

  return {
    studioRef,
    lifestyleRef,
    privateRef,
    studioFront,
    studioAngled,
    lifestyleWide,
    privateFront,
    productCloseup,
  };
}

type Perspectives = ReturnType<typeof seedPerspectives>;

function seedScenes(name: string, groups: Three<ProductgroupRecord>, p: Perspectives): SceneRecord[] {
  const [phoneCases, posters] = groups;
  const { studioRef, lifestyleRef, privateRef, studioFront, studioAngled, lifestyleWide, privateFront } = p;
  return [
    {
      reference: studioRef,
      name: 'Studio',
      description: 'A neutral studio backdrop with soft light.',
      private: false,
      allowsProductPerspectives: true,
      compatibleProductgroups: [phoneCases.reference, posters.reference],
      perspectives: [studioFront.reference, studioAngled.reference],
    },
    {
      reference: lifestyleRef,
      name: 'Living room',
      description: 'A lived-in living room on a sunny afternoon.',
      private: false,
      allowsProductPerspectives: false,
      compatibleProductgroups: [phoneCases.reference, posters.reference],
      perspectives: [studioAngled.reference, lifestyleWide.reference],
    },
    {
      reference: privateRef,
      name: `${name} brand scene`,
      description: 'A scene made for this organization only.',
      private: true,
      allowsProductPerspectives: false,
      compatibleProductgroups: [phoneCases.reference],
      perspectives: [privateFront.reference],
    },
  ];
}

type Compositions = [
  CompositionRecord,
  CompositionRecord,
  CompositionRecord,
  CompositionRecord,
  ...CompositionRecord[],
];

function seedCompositions(ref: NewRef, products: Products, p: Perspectives): Compositions {
  const { printProduct, printNew, poster } = products;
  const {
    studioRef,
    lifestyleRef,
    privateRef,
    studioFront,
    studioAngled,
    lifestyleWide,
    privateFront,
    productCloseup,
  } = p;
  const composition = (
    scene: string,
    p: ProductRecord,
    persp: PerspectiveRecord,
    tokenCost: number,
    available = true,
  ): CompositionRecord => ({
    reference: ref('Composition'),
    sceneReference: scene,
    productReference: p.reference,
    perspectiveReference: persp.reference,
    tokenCost,
    available,
  });
  return [
    composition(studioRef, printProduct, studioFront, 1),
    composition(studioRef, printProduct, productCloseup, 2),
    composition(lifestyleRef, poster, lifestyleWide, 5),
    composition(lifestyleRef, printProduct, lifestyleWide, 1, false),
    composition(studioRef, printNew, studioFront, 1),
    composition(studioRef, printNew, studioAngled, 1),
    composition(studioRef, poster, studioFront, 3),
    composition(privateRef, printProduct, privateFront, 2),
  ];
}

interface Seeded {
  id: string;
  name: string;
  stores: Three<StoreRecord>;
  groups: Three<ProductgroupRecord>;
  items: Three<ItemRecord>;
  products: Products;
  categories: [ClaimcategoryRecord, ClaimcategoryRecord, ClaimcategoryRecord, ClaimcategoryRecord];
  perspectives: Perspectives;
  compositions: Compositions;
}

/** The seed's references by the role they play in tests and demos. */
function seedRoles(s: Seeded): OrganizationSeed {
  const { id, name } = s;
  const [combinedStore, dropshipStore, integratedStore] = s.stores;
  const [phoneCases, posters, accessories] = s.groups;
  const [sharedItem, posterItem, protectorItem] = s.items;
  const { printProduct, printNew, printNew2, poster, nonPrint, unavailable } = s.products;
  const [packageMissing, damaged, printQuality, wrongItem] = s.categories;
  const {
    studioRef,
    lifestyleRef,
    privateRef,
    studioFront,
    studioAngled,
    lifestyleWide,
    privateFront,
    productCloseup,
  } = s.perspectives;
  const [cAvailable, cProductPerspective, cExpensive, cUnavailable] = s.compositions;
  return {
    organization: { id, name },
    stores: {
      combined: combinedStore.reference,
      dropship: dropshipStore.reference,
      integrated: integratedStore.reference,
    },
    storeCodes: {
      combined: combinedStore.code,
      dropship: dropshipStore.code,
      integrated: integratedStore.code,
    },
    productgroups: {
      phoneCases: phoneCases.reference,
      posters: posters.reference,
      accessories: accessories.reference,
    },
    items: { shared: sharedItem.reference, poster: posterItem.reference, protector: protectorItem.reference },
    itemSkus: { shared: sharedItem.sku, poster: posterItem.sku, protector: protectorItem.sku },
    products: {
      print: printProduct.reference,
      printNew: printNew.reference,
      printNew2: printNew2.reference,
      poster: poster.reference,
      nonPrint: nonPrint.reference,
      unavailable: unavailable.reference,
    },
    legacySkus: {
      print: printProduct.legacyItemSKU,
      printNew: printNew.legacyItemSKU,
      printNew2: printNew2.legacyItemSKU,
      poster: poster.legacyItemSKU,
      nonPrint: nonPrint.legacyItemSKU,
    },
    claimcategories: {
      packageMissing: packageMissing.reference,
      damaged: damaged.reference,
      printQuality: printQuality.reference,
      wrongItem: wrongItem.reference,
    },
    scenes: { studio: studioRef, lifestyle: lifestyleRef, private: privateRef },
    perspectives: {
      studioFront: studioFront.reference,
      studioAngled: studioAngled.reference,
      lifestyleWide: lifestyleWide.reference,
      privateFront: privateFront.reference,
      productCloseup: productCloseup.reference,
    },
    compositions: {
      available: cAvailable.reference,
      productPerspective: cProductPerspective.reference,
      expensive: cExpensive.reference,
      unavailable: cUnavailable.reference,
    },
    missingCombination: {
      sceneReference: lifestyleRef,
      productReference: printProduct.reference,
      perspectiveReference: productCloseup.reference,
    },
  };
}

export function buildOrganization(
  seedText: string,
  id: string,
  name: string,
  codePrefix: string,
  keyCount: number,
): OrganizationDefinition {
  const random = createRandom(`${seedText}/${id}`);
  const ref: NewRef = (prefix) => `${prefix}_${random.chars(26)}`;
  // The order of these calls fixes every reference: keep it.
  const keys = Array.from({ length: keyCount }, () => `sk_test_${random.chars(32)}`);
  const stores = seedStores(ref, name, codePrefix);
  const groups = seedProductgroups(ref);
  const items = seedItems(ref);
  const products = seedProducts(ref, groups, items);
  const categories = seedClaimcategories(ref);
  const perspectives = seedPerspectives(ref, products);
  const scenes = seedScenes(name, groups, perspectives);
  const compositions = seedCompositions(ref, products, perspectives);
  const seed = seedRoles({
    id,
    name,
    stores,
    groups,
    items,
    products,
    categories,
    perspectives,
    compositions,
  });
  const { studioFront, studioAngled, lifestyleWide, privateFront, productCloseup } = perspectives;
  return {
    id,
    name,
    storeCodePrefix: codePrefix,
    keys,
    seed,
    catalog: {
      stores,
      productgroups: groups,
      items,
      products: Object.values(products),
      claimcategories: categories,
      scenes,
      perspectives: [studioFront, studioAngled, lifestyleWide, privateFront, productCloseup],
      compositions,
    },
  };
}
