/**
 * Build time: the runnable samples of the page — every operation's whole SDK sample — compiled for the in-page
 * runner, and the routes it names exchanges by.
 */
import { existsSync, readFileSync } from 'node:fs';
import { compileSample } from '../runner/compile.ts';
import type { OperationRoute } from '../runner/record.ts';
import type { RunnableSample } from '../runner/types.ts';
import { isObject, type JsonObject, listOperations, type Operation } from './openapi.ts';
import { exampleFile, wholeSample } from './samples.ts';

/** The documented success statuses: the operation's 2xx responses. */
export function documentedStatuses(op: Operation): number[] {
  const responses = isObject(op.node.responses) ? Object.keys(op.node.responses) : [];
  return responses.filter((s) => /^2\d\d$/.test(s)).map(Number);
}

export function operationRoutes(doc: JsonObject): OperationRoute[] {
  return listOperations(doc)
    .filter((op) => op.section === 'paths')
    .map((op) => ({ operationId: op.operationId, method: op.method.toUpperCase(), path: op.path }));
}

export function operationSample(examplesDir: string, op: Operation): RunnableSample | undefined {
  const file = exampleFile(examplesDir, op.operationId);
  if (!existsSync(file)) return undefined;
  const { source, setup } = wholeSample(readFileSync(file, 'utf8'));
  const statuses = op.section === 'paths' ? documentedStatuses(op) : [];
  return compileSample(
    source,
    {
      id: `op:${op.operationId}`,
      title: typeof op.node.summary === 'string' ? op.node.summary : op.operationId,
      ...(op.section === 'paths' ? { operationId: op.operationId } : {}),
      ...(statuses.length ? { statuses } : {}),
      ...(setup ? { setup } : {}),
    },
    file,
  );
}

export function operationSamples(doc: JsonObject, examplesDir: string): RunnableSample[] {
  return listOperations(doc).flatMap((op) => operationSample(examplesDir, op) ?? []);
}
