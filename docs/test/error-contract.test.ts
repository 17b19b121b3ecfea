// The SDK's one error contract, checked over every error class every package exports: each is a
// PartnerPrintError with a `code` (a timeout's is 'timeout'), and the operation where there is one. A class
// added to an entry without a row here fails the test: the contract (CONTRIBUTING.md) is then decided for it.
// Each also has a `docUrl`: the section of the built site's errors page (docs/guides/errors.md) for its class.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as callbackRedis from '@partner-print/callback/redis';
import * as client from '@partner-print/client';
import * as clientErrors from '@partner-print/client/errors';
import * as lite from '@partner-print/client/lite';
import * as clientRedis from '@partner-print/client/redis';
import * as migrate from '@partner-print/migrate';
import * as migrateNode from '@partner-print/migrate/node';
import * as render from '@partner-print/render';
import * as sandbox from '@partner-print/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../tools/docs/lib/build.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import { headingRoute } from '../../tools/docs/lib/slug.ts';
import { readManifest } from './site-files.ts';

const ENTRIES: Record<string, object> = {
  '@partner-print/client': client,
  '@partner-print/client/errors': clientErrors,
  '@partner-print/client/lite': lite,
  '@partner-print/client/redis': clientRedis,
  '@partner-print/render': render,
  '@partner-print/callback/redis': callbackRedis,
  '@partner-print/migrate': migrate,
  '@partner-print/migrate/node': migrateNode,
  '@partner-print/sandbox': sandbox,
};
// Entries that export no error class (checked too, so one added there is seen).
const OTHERS = [
  '@partner-print/client/telemetry',
  '@partner-print/render/redis',
  '@partner-print/callback',
  '@partner-print/callback/node',
  '@partner-print/ratelimit',
  '@partner-print/ratelimit/redis',
  '@partner-print/openapi',
  '@partner-print/openapi/wire',
  '@partner-print/sandbox/node',
];

const query = {
  sceneReference: 'Scene_a',
  productReference: 'Product_b',
  perspectiveReference: 'Perspective_c',
};
const history = { customIdentifier: 'shop-1', steps: [], describe: () => 'POST 1: unknown' };
const cause = new client.TimeoutError('no answer', {
  operation: 'createOrder',
  method: 'POST',
  path: '/orders',
});

/** How to make each class, and the operation it must name (undefined: none is implied by the class). */
const ROWS: Record<string, { args: unknown[]; operation?: string; sdk?: false }> = {
  PartnerPrintError: { args: ['m'] },
  AuthenticationError: { args: ['m'] },
  NotFoundError: { args: ['m'] },
  GoneError: { args: ['m'] },
  ValidationError: { args: ['m'] },
  RateLimitedError: { args: ['m'] },
  RendertokenLimitError: { args: ['m'] },
  NetworkError: { args: ['m'] },
  TimeoutError: { args: ['m'] },
  AbortedError: { args: ['m'] },
  RedirectError: { args: ['m'] },
  AmbiguousOutcomeError: { args: ['m'] },
  V1CredentialsError: { args: ['m'] },
  ConfigurationError: { args: ['m'] },
  AmbiguousOrderError: { args: [history, 'the call timed out', cause], operation: 'createOrder' },
  IdentifierConflictError: { args: ['m', { customIdentifier: 'shop-1' }], operation: 'createOrder' },
  OrderClaimUnavailableError: { args: ['m'] },
  CompositionNotFoundError: { args: [query], operation: 'lookupComposition' },
  CompositionUnavailableError: { args: [query], operation: 'lookupComposition' },
  IncompatibleCompositionError: {
    args: [query, { reason: 'productgroup-not-compatible', message: 'no' }],
    operation: 'lookupComposition',
  },
  InsufficientRendertokensError: {
    args: [{ required: 3, remaining: 1, limit: 10, resetsAt: new Date(0), now: 0 }],
    operation: 'getRendertokens',
  },
  RenderFailedError: {
    args: [{ reference: 'Render_1', compositionReference: 'Composition_1', imageReference: 'Image_1' }],
    operation: 'getRender',
  },
  RenderTimeoutError: { args: ['timeoutMs passed', 'Render_1'], operation: 'getRender' },
  CoalescedRoundError: { args: [], operation: 'orderUpdated' },
  InvalidImageError: { args: ['not an image', 'gif'] },
  UnknownSkuError: { args: ['ABC', 'no product'] },
  UsageError: { args: ['m'] },
  // The sandbox is not the SDK and shares no code with it: its control API's own error, with a code too.
  ControlError: { args: [400, 'invalid_request', 'm'], sdk: false },
};

const isErrorClass = (value: unknown): value is new (...args: never[]) => Error =>
  typeof value === 'function' && value.prototype instanceof Error;

function errorClasses(module: object): Array<[string, new (...args: never[]) => Error]> {
  return Object.entries(module).filter((entry): entry is [string, new (...args: never[]) => Error] =>
    isErrorClass(entry[1]),
  );
}

describe('one error contract across packages', () => {
  it('entries without error classes still have none', async () => {
    for (const entry of OTHERS) expect(errorClasses(await import(entry)).map(([n]) => n)).toEqual([]);
  });

  for (const [entry, module] of Object.entries(ENTRIES)) {
    it(`every error class of ${entry} has a code, 'timeout' for a timeout, and its operation`, () => {
      const classes = errorClasses(module);
      expect(classes.length).toBeGreaterThan(0);
      for (const [name, Class] of classes) {
        const row = ROWS[name];
        expect(row, `${entry} exports ${name}: add it to the contract`).toBeDefined();
        if (!row) continue;
        const error: unknown = Reflect.construct(Class, row.args);
        expect(error).toBeInstanceOf(Error);
        if (row.sdk !== false) expect(error, name).toBeInstanceOf(client.PartnerPrintError);
        const { code, operation } = error as { code?: unknown; operation?: unknown };
        expect(typeof code === 'string' && code.length > 0, `${name}.code is ${String(code)}`).toBe(true);
        if (error instanceof client.TimeoutError) expect(code, name).toBe('timeout');
        if (row.operation) expect(operation, `${name}.operation`).toBe(row.operation);
        // Recognised by `instanceof` or `code`, never by `name` (a subclass may keep its parent's).
        expect((error as Error).name).toMatch(/Error$/);
      }
    });
  }

  it('errors from answers have a code when the service sent none (by status)', async () => {
    for (const [status, code] of [
      [503, 'server_error'],
      [401, 'unauthorized'],
      [403, 'forbidden'],
      [409, 'invalid_request'],
    ] as const) {
      const c = client.createClient({
        secretKey: 'sk_test_contract',
        baseUrl: 'https://api.example/v2',
        fetch: async () => new Response('', { status }),
        retry: false,
        rateLimit: false,
      });
      await expect(c.get('/claimcategories')).rejects.toMatchObject({
        status,
        code,
        operation: 'listClaimcategories',
        attempts: 1,
      });
    }
  });
});

// The guide sections the errors page links on to, per class: where `docUrl` pointed before it was one page
// (for the class, or for a code of it), so each stays one click away from the section docUrl opens.
const FURTHER: Record<string, Record<string, string>> = {
  ValidationError: {
    missing_address: 'orders-and-shipments.md#placing-an-order',
    missing_image_reference: 'orders-and-shipments.md#placing-an-order',
    evidence_required: 'claims.md#error-codes',
    unsupported_image_format: 'images-and-evidence.md#the-rules',
  },
  PartnerPrintError: { cursor_repeated: 'pagination.md#with-the-sdk' },
  AuthenticationError: { '': 'authentication-and-environments.md#secret-keys' },
  V1CredentialsError: { '': 'migrating-from-v1.md#what-changed' },
  ConfigurationError: { '': 'getting-started.md#create-a-client' },
  RedirectError: { '': 'authentication-and-environments.md#redirects' },
  RateLimitedError: { '': 'rate-limits.md#when-a-bucket-is-empty' },
  RendertokenLimitError: { '': 'rendering.md#rendertokens' },
  AmbiguousOutcomeError: { '': 'orders-and-shipments.md#creating-an-order-exactly-once' },
};

describe('docUrl: the errors page of the built site', () => {
  let page: Manifest['guides'][number] | undefined;
  let routes: Set<string>;
  beforeAll(() => {
    page = readManifest().guides.find((g) => g.file === 'errors.md');
    routes = new Set(page ? page.headings.map((h) => headingRoute(page!.tag, h)) : []);
  });

  for (const [entry, module] of Object.entries(ENTRIES)) {
    it(`every error class of ${entry} has a section there, and its docUrl opens a section there`, () => {
      expect(page?.missing, 'docs/guides/errors.md is in the built site').toBe(false);
      for (const [name, Class] of errorClasses(module)) {
        const row = ROWS[name];
        if (!row || row.sdk === false) continue;
        expect(page!.headings, `errors.md has a "## ${name}" section`).toContain(name);
        const error = Reflect.construct(Class, row.args) as client.PartnerPrintError;
        expect(error.docUrl.startsWith(`${client.DOCS_URL}#/`), error.docUrl).toBe(true);
        expect(routes, `${name}.docUrl`).toContain(error.docUrl.slice(client.DOCS_URL.length));
      }
    });
  }

  it('a section names the codes it explains elsewhere and links on to that guide section', () => {
    const markdown = readFileSync(join(PATHS.guides, 'errors.md'), 'utf8');
    const sections = new Map(
      markdown
        .split(/^## /m)
        .slice(1)
        .map((s) => [s.slice(0, s.indexOf('\n')).trim(), s] as const),
    );
    for (const [name, further] of Object.entries(FURTHER)) {
      const section = sections.get(name) ?? '';
      for (const [code, target] of Object.entries(further)) {
        if (code) expect(section, `${name}: ${code}`).toContain(`\`${code}\``);
        expect(section, `${name} links to ${target}`).toContain(`](${target})`);
      }
    }
  });
});
