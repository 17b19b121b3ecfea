import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CodeSample,
  isObject,
  type Json,
  type JsonObject,
  type Operation,
  resolveRef,
} from './openapi.ts';

export function exampleFile(examplesDir: string, operationId: string): string {
  return join(examplesDir, `${operationId}.ts`);
}

export const SETUP_REGION = 'setup';

/**
 * A whole sample as the page shows it: the file without its region markers. `setup` holds the lines (1-based,
 * inclusive) of the `// #region setup` part — imports, the client from environment variables, the inputs —
 * which the page folds.
 */
export function wholeSample(source: string): { source: string; setup?: [number, number] } {
  const out: string[] = [];
  let start: number | undefined;
  let setup: [number, number] | undefined;
  for (const line of source.replace(/\s+$/, '').split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === `// #region ${SETUP_REGION}`) {
      if (setup || start !== undefined) throw new Error('one "// #region setup" per sample');
      start = out.length + 1;
    } else if (trimmed === '// #endregion' && start !== undefined && !setup) {
      setup = [start, out.length];
    } else if (/^\/\/ #(end)?region\b/.test(trimmed)) {
      throw new Error(`unexpected marker "${trimmed}"`);
    } else {
      out.push(line);
    }
  }
  if (start !== undefined && !setup) throw new Error('#region setup is not closed');
  return { source: `${out.join('\n')}\n`, ...(setup ? { setup } : {}) };
}

/** The SDK sample of an operation, or undefined when the operation has no example file yet. */
export function sdkSample(examplesDir: string, operationId: string): CodeSample | undefined {
  const file = exampleFile(examplesDir, operationId);
  if (!existsSync(file)) return undefined;
  const { source } = wholeSample(readFileSync(file, 'utf8'));
  return { lang: 'TypeScript', label: 'SDK (TypeScript)', source };
}

// ---------------------------------------------------------------------------------------------------------
// curl, generated from the operation: method, path, parameter examples and the example request body.

function firstExample(doc: JsonObject, node: Json | undefined): Json | undefined {
  const resolved = resolveRef(doc, node);
  if (!isObject(resolved)) return undefined;
  if (resolved.example !== undefined) return resolved.example;
  if (isObject(resolved.examples)) {
    for (const ex of Object.values(resolved.examples)) {
      const value = resolveRef(doc, ex);
      if (isObject(value) && value.value !== undefined) return value.value;
    }
  }
  if (Array.isArray(resolved.examples) && resolved.examples.length) return resolved.examples[0];
  if (resolved.schema !== undefined) {
    const schema = resolveRef(doc, resolved.schema);
    if (isObject(schema)) {
      if (schema.example !== undefined) return schema.example;
      if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
      if (schema.default !== undefined) return schema.default;
      if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
    }
  }
  return undefined;
}

interface Param {
  name: string;
  in: string;
  required: boolean;
  example: Json | undefined;
}

function parameters(doc: JsonObject, op: Operation): Param[] {
  const raw = [
    ...(Array.isArray(op.pathItem.parameters) ? op.pathItem.parameters : []),
    ...(Array.isArray(op.node.parameters) ? op.node.parameters : []),
  ];
  const byKey = new Map<string, Param>();
  for (const entry of raw) {
    const p = resolveRef(doc, entry);
    if (!isObject(p) || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
    byKey.set(`${p.in}:${p.name}`, {
      name: p.name,
      in: p.in,
      required: p.required === true || p.in === 'path',
      example: firstExample(doc, p),
    });
  }
  return [...byKey.values()];
}

function scalar(value: Json | undefined, fallback: string): string {
  if (value === undefined || value === null || typeof value === 'object') return fallback;
  return String(value);
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function requestContent(
  doc: JsonObject,
  op: Operation,
): { type: string; example: Json | undefined } | undefined {
  const body = resolveRef(doc, op.node.requestBody);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const [type, media] = Object.entries(body.content)[0] ?? [];
  if (!type) return undefined;
  return { type, example: firstExample(doc, media) };
}

function successIsBinary(doc: JsonObject, op: Operation): string | undefined {
  const responses = op.node.responses;
  if (!isObject(responses)) return undefined;
  for (const [status, raw] of Object.entries(responses)) {
    if (!status.startsWith('2')) continue;
    const response = resolveRef(doc, raw);
    if (!isObject(response) || !isObject(response.content)) continue;
    const type = Object.keys(response.content).find((t) => !t.includes('json'));
    if (type) return type;
  }
  return undefined;
}

export function curlSample(doc: JsonObject, op: Operation): CodeSample {
  return op.section === 'webhooks' ? webhookCurl(doc, op) : operationCurl(doc, op);
}

function operationCurl(doc: JsonObject, op: Operation): CodeSample {
  const params = parameters(doc, op);
  let path = op.path;
  for (const p of params.filter((p) => p.in === 'path')) {
    path = path.replace(`{${p.name}}`, encodeURIComponent(scalar(p.example, `{${p.name}}`)));
  }
  const query = new URLSearchParams();
  for (const p of params.filter((p) => p.in === 'query' && p.required)) {
    query.set(p.name, scalar(p.example, `<${p.name}>`));
  }
  const qs = query.size ? `?${query.toString()}` : '';
  const method = op.method.toUpperCase();
  const lines = [`curl${method === 'GET' ? '' : ` -X ${method}`} "$PARTNER_PRINT_BASE_URL${path}${qs}"`];
  lines.push('-H "X-Service-Secret-Key: $PARTNER_PRINT_SECRET_KEY"');
  const content = requestContent(doc, op);
  if (content?.type === 'application/octet-stream') {
    lines.push('-H "Content-Type: application/octet-stream"', '--data-binary @design.png');
  } else if (content) {
    lines.push(`-H "Content-Type: ${content.type}"`);
    const body = content.example === undefined ? '{}' : JSON.stringify(content.example, null, 2);
    lines.push(`--data ${shellQuote(body)}`);
  }
  const binary = successIsBinary(doc, op);
  if (binary) lines.push(`-o ${binary.includes('png') ? 'output.png' : 'output.bin'}`, '-D -');
  const header = ['# export PARTNER_PRINT_BASE_URL=…/v2', '# export PARTNER_PRINT_SECRET_KEY=…'];
  if (binary) header.push('# 202 + Retry-After: not ready yet, ask again later');
  return { lang: 'curl', label: 'curl', source: `${header.join('\n')}\n${lines.join(' \\\n  ')}\n` };
}

function webhookCurl(doc: JsonObject, op: Operation): CodeSample {
  const query = new URLSearchParams();
  for (const p of parameters(doc, op).filter((p) => p.in === 'query')) {
    if (p.example !== undefined && p.example !== null && typeof p.example !== 'object') {
      query.set(p.name, String(p.example));
    }
  }
  const source = [
    '# Simulate the service: send the order-updated callback to your own handler.',
    `curl -i "http://127.0.0.1:8080/partner-print/callback?${query.toString()}"`,
    '',
  ].join('\n');
  return { lang: 'curl', label: 'curl (simulate the callback)', source };
}
