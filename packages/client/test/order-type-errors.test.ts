// The messages TypeScript shows a developer who gets an order wrong: checked by compiling small programs
// with the compiler API (the .test-d.ts files say that they fail, this says how the failure reads).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

function compilerOptions(strict: boolean): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(here, '..', 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('tsconfig.json not read');
  // The strict consumer settings of tools/consumers on top of the package's own.
  return strict ? { ...parsed.options, exactOptionalPropertyTypes: true } : parsed.options;
}

const line = `{ productReference: 'Product_x', imageReference: 'Image_x', quantity: 1 }`;
const SNIPPETS = {
  dropshipWithoutAddress: `client.createOrder({ storeReference: 'Store_x', shippingKind: 'dropship', orderlines: [${line}] });`,
  emptyOrderlines: `client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', orderlines: [] });`,
  combinedWithAddress: `client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', dropshipAddress: { city: 'Utrecht' }, orderlines: [${line}] });`,
  correct: [
    `client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', customIdentifier: 'c-1', orderlines: [${line}] });`,
    `client.createOrder({ storeReference: 'Store_x', shippingKind: 'dropship', dropshipAddress: { city: 'Utrecht' }, orderlines: [${line}, ${line}] });`,
  ].join('\n'),
};
type Snippet = keyof typeof SNIPPETS;
const fileOf = (name: string) => path.join(here, `__order_snippet_${name}__.ts`);
const sourceOf = (body: string) =>
  `import { createClient } from '../src/index.ts';\nconst client = createClient({ secretKey: 'k', baseUrl: 'http://127.0.0.1/v2' });\n${body}\n`;
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The error messages of each snippet (statements with `client` in scope), one string per diagnostic. */
function errorsOf(strict: boolean): Record<Snippet, string[]> {
  const options = compilerOptions(strict);
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  const snippets = new Map(Object.entries(SNIPPETS).map(([name, body]) => [fileOf(name), body]));
  host.getSourceFile = (file, language, ...rest) => {
    const body = snippets.get(path.resolve(file));
    if (body !== undefined) return ts.createSourceFile(file, sourceOf(body), language);
    // The SDK's own files parse once for both programs.
    if (!parsed.has(file)) parsed.set(file, read(file, language, ...rest));
    return parsed.get(file);
  };
  const program = ts.createProgram([...snippets.keys()], options, host);
  const errors = (name: string) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(fileOf(name)))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return Object.fromEntries(Object.keys(SNIPPETS).map((name) => [name, errors(name)])) as Record<
    Snippet,
    string[]
  >;
}

let loose: Record<Snippet, string[]>;
let strict: Record<Snippet, string[]>;
beforeAll(() => {
  loose = errorsOf(false);
  strict = errorsOf(true);
}, 120_000);

describe('type errors of createOrder', () => {
  it.each([false, true])(
    'a dropship order without dropshipAddress: the field and the request type are named, nothing is dumped (exactOptionalPropertyTypes: %s)',
    (exact) => {
      const errors = (exact ? strict : loose).dropshipWithoutAddress;
      expect(errors).toHaveLength(1);
      const lines = errors[0]!.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(
        'to parameter of type \'DropshipOrderRequest & { shippingKind: "dropship"; }\'',
      );
      expect(lines[1]).toMatch(
        /^ {2}Property 'dropshipAddress' is missing in type '.*' but required in type 'DropshipOrderRequest'\.$/,
      );
      // Neither the address's fields nor the other shipping kind are printed.
      expect(errors[0]).not.toMatch(/company|CombinedOrderRequest|combined|\.\.\. \d+ more/);
    },
  );

  it('an empty orderlines array: two lines on the orderlines property', () => {
    expect(loose.emptyOrderlines).toEqual([
      "Type '[]' is not assignable to type 'OrderlineRequests'.\n  Source has 0 element(s) but target requires 1.",
    ]);
    expect(strict.emptyOrderlines).toEqual(loose.emptyOrderlines);
  });

  it('a combined order with an address: one line on the dropshipAddress property', () => {
    expect(loose.combinedWithAddress).toEqual([
      "Type '{ city: string; }' is not assignable to type 'undefined'.",
    ]);
  });

  it('a correct order of either kind compiles, also under exactOptionalPropertyTypes', () => {
    expect(loose.correct).toEqual([]);
    expect(strict.correct).toEqual([]);
  });
});
