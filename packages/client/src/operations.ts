export type OperationTable = Readonly<Record<string, { readonly method: string; readonly path: string }>>;

export interface OperationIndex {
  /** operationId for a method and a path template such as `/orders/{orderReference}`. */
  byTemplate(method: string, template: string): string | undefined;
  /** operationId for a method and a concrete path below the base URL such as `/orders/Order_…`. */
  byPath(method: string, path: string): string | undefined;
}

export function operationIndex(table: OperationTable): OperationIndex {
  let list: Array<[method: string, template: string, pattern: RegExp, id: string]> | undefined;
  const find = (method: string, match: (template: string, pattern: RegExp) => boolean) => {
    // No path of the spec is both a literal and a parameter at one position, so order does not matter.
    list ??= Object.entries(table).map(([id, { method, path }]) => [
      method.toUpperCase(),
      path,
      new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      id,
    ]);
    const m = method.toUpperCase();
    return list.find(([pm, template, pattern]) => pm === m && match(template, pattern))?.[3];
  };
  return {
    byTemplate: (method, template) => find(method, (t) => t === template),
    byPath: (method, path) => find(method, (_, pattern) => pattern.test(path)),
  };
}
