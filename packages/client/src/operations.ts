export type OperationTable = Readonly<Record<string, { readonly method: string; readonly path: string }>>;

export interface OperationIndex {
  /** operationId for a method and a path template such as `/orders/{orderReference}`. */
  byTemplate(method: string, template: string): string | undefined;
  /** operationId for a method and a concrete path below the base URL such as `/orders/Order_…`. */
  byPath(method: string, path: string): string | undefined;
}

/** Without a table every lookup answers undefined (the lite entry's default). */
export function operationIndex(table: OperationTable = {}): OperationIndex {
  let list: Array<[template: string, pattern: RegExp, id: string]> | undefined;
  const find = (method: string, path: string, exact?: boolean) => {
    const key = `${method.toUpperCase()} ${path}`;
    // No path of the spec is both a literal and a parameter at one position, so order does not matter.
    list ??= Object.entries(table).map(([id, o]) => {
      const template = `${o.method.toUpperCase()} ${o.path}`;
      return [template, RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`), id];
    });
    return list.find(([template, pattern]) => (exact ? template === key : pattern.test(key)))?.[2];
  };
  return { byTemplate: (method, template) => find(method, template, true), byPath: find };
}
