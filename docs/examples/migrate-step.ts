// The demo's migration step: a small V1 order export (docs/examples/v1/orders.jsonl — snake_case,
// legacy SKUs, base64 images, partner_reference) converted to V2 order requests with
// @partner-print/migrate and submitted exactly once (a rerun finds the orders by customIdentifier).
import { readFile } from 'node:fs/promises';
import {
  convertV1Order,
  createImageUploader,
  createSkuResolver,
  lookupOrderByCustomIdentifier,
  type MigrateClient,
  type ReportAction,
} from '@partner-print/migrate';
import { deriveCustomIdentifier } from '@partner-print/migrate/node';

/** What the migration step needs from the demo. */
export interface MigrateStepContext {
  /** The demo's client (createClient). */
  client: MigrateClient & {
    uploadImage(data: Uint8Array): Promise<string>;
    createOrder(order: never): Promise<unknown>;
  };
  /** The sandbox's seeded stores and their V1 store codes (sandbox.seed). */
  seed: { stores: Record<string, string>; storeCodes: Record<string, string> };
  log?: (line: string) => void;
  /** A V1 order JSONL file; docs/examples/v1/orders.jsonl by default. */
  file?: string | URL;
}

export async function migrateStep(ctx: MigrateStepContext): Promise<void> {
  const log = ctx.log ?? ((line: string) => console.log(line));
  const { client } = ctx;
  const file = ctx.file ?? new URL('./v1/orders.jsonl', import.meta.url);
  // V1 identifies stores by code; V2 by Store_ reference.
  const stores = new Map(
    Object.entries(ctx.seed.storeCodes).map(([role, code]) => [code, ctx.seed.stores[role]]),
  );
  const resolver = createSkuResolver(client);
  const uploader = createImageUploader(client);

  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim());
  for (const [i, raw] of lines.entries()) {
    const converted = await convertV1Order(JSON.parse(raw), {
      resolveSku: (sku) => resolver.resolve(sku),
      uploadImage: (base64) => uploader.uploadBase64(base64),
      storeReference: (code) => stores.get(code),
      customIdentifier: deriveCustomIdentifier(raw), // used only when the line has no partner_reference
    });
    const { report } = converted;
    const counts: Partial<Record<ReportAction, number>> = {};
    for (const e of report) counts[e.action] = (counts[e.action] ?? 0) + 1;
    const summary = Object.entries(counts)
      .map(([action, n]) => `${n} ${action}`)
      .join(', ');
    if (!converted.ok) {
      const why = converted.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
      log(`line ${i + 1}: not converted — ${why}`);
      continue;
    }
    const { order } = converted;
    for (const e of report.filter((x) => x.action === 'unknown')) {
      log(`line ${i + 1}: V1 field ${e.path} has no V2 equivalent; left out`);
    }
    // Exactly once: an order already created with this customIdentifier is not created again.
    const id = order.customIdentifier!;
    const existing = await lookupOrderByCustomIdentifier(client, id);
    const reference = existing ?? (await client.createOrder(order)).order.reference;
    log(
      `line ${i + 1}: ${id} → ${reference} (${existing ? 'already there' : 'created'}; fields: ${summary})`,
    );
  }
  const s = resolver.stats();
  log(
    `${s.lookups} SKU lookups for ${s.distinct} distinct SKUs; ${uploader.stats().uploads} image upload(s)`,
  );
  // A plain item SKU whose item has several products: which product it names, and the others' SKUs.
  const plain = await resolver.resolve('CASE-IP15-CLR');
  if (plain.status === 'resolved') log(plain.note);
}

/** The step as the demo lists it (steps/index.ts). */
export const migrateDemoStep = {
  title: 'Migrate a V1 order export (@partner-print/migrate)',
  run: (ctx: MigrateStepContext) => migrateStep(ctx),
};
