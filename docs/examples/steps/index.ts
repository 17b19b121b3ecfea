import { callbackDemoStep } from '../callback-step.ts';
import { migrateDemoStep } from '../migrate-step.ts';
import { renderDemoStep } from '../render-step.ts';
import { decideClaim, fileClaim, retractClaim } from './claims.ts';
import type { DemoStep } from './context.ts';
import { createOrders } from './create-orders.ts';
import { droppedConnection } from './dropped-connection.ts';
import { lookupOrder } from './lookup-order.ts';
import { pageOrders } from './page-orders.ts';
import { shipOrders } from './ship-orders.ts';
import { uploadImage } from './upload-image.ts';

export type { DemoContext, DemoState, DemoStep } from './context.ts';

/** The walkthrough, in order. Each step reads what earlier ones left in `ctx.state`. */
export const steps: DemoStep[] = [
  uploadImage,
  createOrders,
  droppedConnection,
  lookupOrder,
  callbackDemoStep,
  shipOrders,
  pageOrders,
  fileClaim,
  decideClaim,
  retractClaim,
  renderDemoStep,
  migrateDemoStep,
];
