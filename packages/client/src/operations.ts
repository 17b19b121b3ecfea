export type OperationTable = Readonly<Record<string, { readonly method: string; readonly path: string }>>;

export interface OperationIndex {
  /** operationId for a method and a path template such as `/orders/{orderReference}`. */
  byTemplate(method: string, template: string): string | undefined;
  /** operationId for a method and a concrete path below the base URL such as `/orders/Order_…`. */
  byPath(method: string, path: string): string | undefined;
}

export function operationIndex(table: OperationTable): OperationIndex {
  let templates: Map<string, string> | undefined;
  let patterns: Array<[string, RegExp, string]> | undefined;
  const build = () => {
    templates = new Map();
    patterns = [];
    for (const [id, { method, path }] of Object.entries(table)) {
      const m = method.toUpperCase();
      templates.set(`${m} ${path}`, id);
      // No path of the spec is both a literal and a parameter at one position, so order does not matter.
      patterns.push([m, new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`), id]);
    }
  };
  return {
    byTemplate(method, template) {
      if (!templates) build();
      return templates!.get(`${method.toUpperCase()} ${template}`);
    },
    byPath(method, path) {
      if (!patterns) build();
      const m = method.toUpperCase();
      for (const [pm, re, id] of patterns!) if (pm === m && re.test(path)) return id;
      return undefined;
    },
  };
}
