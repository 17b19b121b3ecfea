import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import type { OpenApiDocument } from './bundle.ts';
import { type ReferenceSchema, referencePrefixOf } from './references.ts';

const BLOB = ts.factory.createTypeReferenceNode('Blob');
const UINT8ARRAY = ts.factory.createTypeReferenceNode('Uint8Array');

function isBinary(schema: { format?: string; contentMediaType?: string }): boolean {
  return schema.format === 'binary' || schema.contentMediaType === 'application/octet-stream';
}

/** `` `Order_${string}` ``: the type of every reference field, so a reference of another resource does not fit. */
function referenceType(prefix: string): ts.TypeNode {
  return ts.factory.createTemplateLiteralType(ts.factory.createTemplateHead(`${prefix}_`), [
    ts.factory.createTemplateLiteralTypeSpan(
      ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
      ts.factory.createTemplateTail(''),
    ),
  ]);
}

/**
 * `'a' | 'b' | string` collapses to `string` in TypeScript and editors stop suggesting the known values.
 * `string & {}` keeps the union open while preserving the suggestions (the error `code` is such a union).
 */
function keepOpenUnionsOpen(type: ts.TypeNode): ts.TypeNode | undefined {
  if (!ts.isUnionTypeNode(type) || type.types.length < 2) return undefined;
  const isString = (node: ts.TypeNode) => node.kind === ts.SyntaxKind.StringKeyword;
  const isNull = (node: ts.TypeNode) =>
    ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword;
  const others = type.types.filter((node) => !isString(node) && !isNull(node));
  if (!type.types.some(isString) || others.length === 0) return undefined;
  const openString = ts.factory.createParenthesizedType(
    ts.factory.createIntersectionTypeNode([
      ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
      ts.factory.createTypeLiteralNode([]),
    ]),
  );
  return ts.factory.createUnionTypeNode(type.types.map((node) => (isString(node) ? openString : node)));
}

/**
 * openapi-typescript types binary bodies as `string`. Requests accept what `fetch` can send as raw bytes;
 * responses are what a client gets from `parseAs: 'blob'`. Reference schemas (`x-reference-prefix`) become
 * template literal types.
 */
export async function generateTypes(doc: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(doc as never, {
    rootTypes: true,
    // minItems/maxItems become tuple types: an order's orderlines (minItems 1) cannot be an empty array.
    arrayLength: true,
    rootTypesNoSchemaPrefix: true,
    silent: true,
    transform(schema, metadata) {
      const prefix = referencePrefixOf(schema as ReferenceSchema, metadata.path ?? 'schema');
      if (prefix) return referenceType(prefix);
      if (!isBinary(schema as { format?: string; contentMediaType?: string })) return undefined;
      const isRequest = metadata.path?.includes('/requestBody/') ?? false;
      return isRequest ? ts.factory.createUnionTypeNode([BLOB, UINT8ARRAY]) : BLOB;
    },
    postTransform: keepOpenUnionsOpen,
  });
  return astToString(ast);
}
