import type { PartnerPrintClient } from '@partner-print/client';
import type { Reference } from '@partner-print/openapi/wire';
import type { Sandbox, SandboxSeed } from '@partner-print/sandbox';

/** What every demo step gets: the client, the embedded sandbox, and what earlier steps made. */
export interface DemoContext {
  client: PartnerPrintClient;
  sandbox: Sandbox;
  seed: SandboxSeed;
  /** Prints one line of the walkthrough. */
  log: (line: string) => void;
  /** Where steps that write files (mockups…) put them. */
  outDir: string;
  /** Requests the client has sent so far (every attempt), for steps that show what went over the wire. */
  requests: () => number;
  /** References made by earlier steps, for the steps after them. */
  state: DemoState;
}

export interface DemoState {
  image?: Reference<'Image'>;
  dropshipOrder?: Reference<'Order'>;
  combinedOrder?: Reference<'Order'>;
  dropshipShipment?: Reference<'Shipment'>;
  combinedShipment?: Reference<'Shipment'>;
  decidedClaim?: Reference<'Claim'>;
  retractedClaim?: Reference<'Claim'>;
}

/** One step of the walkthrough. Add yours to the list in steps/index.ts. */
export interface DemoStep {
  title: string;
  run(ctx: DemoContext): Promise<void>;
}
