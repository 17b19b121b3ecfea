import type { Ref } from './random.ts';

/** Internal records of the sandbox (not wire shapes; the routes map them). */

export interface Address {
  company?: string;
  firstname?: string;
  lastname?: string;
  streetname?: string;
  housenumber?: string;
  housenumberAddition?: string;
  additionalInfo?: string;
  state?: string;
  zipcode?: string;
  city?: string;
  countryCode?: string;
  phonenumber?: string;
  email?: string;
}

export interface StoreRecord {
  reference: Ref<'Store'>;
  code: string;
  name: string;
  combinedAddress: Address | null;
  /** Integrator code sent as via_store_code for orders of this store. */
  viaStoreCode: string | null;
  callbackUrl: string;
  nextOrderNumber: number;
}

export interface ProductgroupRecord {
  reference: Ref<'Productgroup'>;
  name: string;
}

export interface ItemRecord {
  reference: Ref<'Item'>;
  sku: string;
  logicalQuantity: number;
  physicalQuantity: number;
  productReferences: string[];
}

export interface ProductRecord {
  reference: Ref<'Product'>;
  name: string;
  productgroupReference: string;
  itemReference: string;
  legacyItemSKU: string;
  print: boolean;
  available: boolean;
  created: number;
  media: string[];
}

export interface ClaimcategoryRecord {
  reference: Ref<'Claimcategory'>;
  name: string;
  evidenceRequired: boolean;
  packageMissing: boolean;
}

export interface SceneRecord {
  reference: Ref<'Scene'>;
  name: string;
  description: string;
  private: boolean;
  allowsProductPerspectives: boolean;
  compatibleProductgroups: string[];
  perspectives: string[];
}

export interface PerspectiveRecord {
  reference: Ref<'Perspective'>;
  name: string;
  output: { widthPx: number; heightPx: number; format: string };
  scenes: string[] | null;
  products: string[] | null;
}

export interface CompositionRecord {
  reference: Ref<'Composition'>;
  sceneReference: string;
  productReference: string;
  perspectiveReference: string;
  tokenCost: number;
  available: boolean;
}

export interface UploadRecord {
  reference: string;
  kind: 'image' | 'evidence';
  hash: string;
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  downsized: boolean;
  size: number;
  uploaded: number;
  bytes: Uint8Array;
  /** Evidence: the claim it is attached to. */
  claimReference: string | null;
  purged: boolean;
}

export interface OrderlineRecord {
  productReference: string;
  imageReference: string | null;
  quantity: number;
  legacySku: string;
}

export interface OrderRecord {
  reference: Ref<'Order'>;
  seq: number;
  storeReference: string;
  shippingKind: 'dropship' | 'combined';
  customIdentifier: string | null;
  dropshipAddress: Address | null;
  dropshipMinimalShippingLevel: string | null;
  orderlines: OrderlineRecord[];
  legacyOrderCode: string;
  created: number;
  updated: number;
  shipmentReferences: string[];
  replaced: boolean;
  /** Bumped on every change; the serialized `{ order }` body is cached per version. */
  version?: number;
  cache?: { version: number; json: string };
}

export interface ShipmentlineRecord {
  orderlineIndex: number;
  quantity: number;
}

export interface ShipmentRecord {
  reference: Ref<'Shipment'>;
  orderReference: string;
  shipped: number;
  carrier: string;
  trackingCode: string;
  trackingUrl: string;
  lines: ShipmentlineRecord[];
}

export interface ClaimlineDecision {
  replacementQuantity: number;
  refundQuantity: number;
  rejectionQuantity: number;
  comment: string;
}

export interface ClaimlineRecord {
  orderlineIndex: number;
  quantity: number;
  claimcategoryReference: string;
  evidenceReferences: string[];
  decision: ClaimlineDecision | null;
}

export type ClaimStatus = 'pending' | 'resolved' | 'rejected' | 'retracted';

export interface ClaimRecord {
  reference: Ref<'Claim'>;
  seq: number;
  kind: 'package-missing' | 'item-issues';
  orderReference: string;
  shipmentReference: string;
  status: ClaimStatus;
  comment: string;
  createdBy: string;
  created: number;
  retracted: number | null;
  decision: { decided: number; refundShippingCosts: boolean; comment: string } | null;
  evidenceReferences: string[];
  claimlines: ClaimlineRecord[];
}

export type RenderStatus = 'pending' | 'completed' | 'failed';

export interface RenderRecord {
  reference: Ref<'Render'>;
  compositionReference: string;
  imageReference: string;
  status: RenderStatus;
  created: number;
  completed: number | null;
  dueAt: number;
  seed: number;
  media: { media: Uint8Array; thumbnail: Uint8Array; thumbhash: string } | null;
}
