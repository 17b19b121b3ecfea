// A file's constants by binding: which declaration an identifier reads, by the scopes between them.
import { describe, expect, it } from 'vitest';
import { indexTree, type N } from './ast.ts';
import { parseSource } from './parse.ts';
import { Bindings } from './values.ts';

/** The value of the `const` each `use(x)` of the file reads, as its text ('-' where none, '?' where not told). */
function reads(text: string): string[] {
  const { nodes, links } = indexTree(parseSource(text, 'a.ts').program);
  const b = new Bindings(nodes, links);
  return nodes
    .filter((n) => n.type === 'CallExpression' && n.callee.name === 'use')
    .map((n: N) => {
      const d = b.declaratorAt(n.arguments[0]);
      if (d === undefined) return '?';
      return d === null ? '-' : d.init ? text.slice(d.init.start, d.init.end) : 'no value';
    });
}

describe('Bindings.declaratorAt', () => {
  it('the nearest scope binding the name: functions, blocks, parameters, catch, loops, a switch', () => {
    expect(reads('function a() { const x = 1; use(x); }\nfunction b() { const x = 2; use(x); }\n')).toEqual([
      '1',
      '2',
    ]);
    expect(reads('const x = 1;\nfunction f(x) { use(x); }\nuse(x);\n')).toEqual(['-', '1']);
    expect(reads('const x = 1;\n{ const x = 2; use(x); }\nuse(x);\n')).toEqual(['2', '1']);
    expect(reads('const x = 1;\ntry {} catch (x) { use(x); }\nfor (const x of []) use(x);\n')).toEqual([
      '-',
      'no value',
    ]);
    expect(reads("const x = 1;\nswitch (k) { case 'a': const x = 2; break; case 'b': use(x); }\n")).toEqual([
      '2',
    ]);
    expect(reads('const x = 1;\nconst g = function x() { use(x); };\nclass C { m() { use(x); } }\n')).toEqual(
      ['-', '1'],
    );
    expect(reads("import { x } from './x';\nfunction f() { const x = 2; }\nuse(x);\nuse(y);\n")).toEqual([
      '-',
      '-',
    ]);
  });

  it('a name a `var` binds anywhere in the file is not told (its scope is the whole function)', () => {
    expect(reads('const x = 1;\nfunction f() { if (k) { var x = 2; } use(x); }\n')).toEqual(['?']);
  });
});
