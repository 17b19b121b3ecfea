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

  it('a `var` binds in its whole function (or the program), from any block of it, where that is certain', () => {
    expect(
      reads('const x = 1;\nfunction f() { if (k) { var y = 2; use(y); } var x = 2; use(x); }\nuse(x);\n'),
    ).toEqual(['2', '2', '1']);
    expect(reads('var x = 1;\nfunction f() { var x = 2; use(x); }\nfunction g() { use(x); }\n')).toEqual([
      '2',
      '1',
    ]);
    expect(reads('var x;\nuse(x);\n')).toEqual(['no value']);
  });

  it('a `var` whose binding is not certain is not told: declared twice in its function, assigned, a loop head, eval, with', () => {
    for (const text of [
      'function f() { var x = 1; if (k) { var x = 2; } use(x); }\n',
      'var x = 1;\nfunction f() { x = 2; }\nuse(x);\n',
      'var x = 1;\nx++;\nuse(x);\n',
      'var x = 1;\n[x] = a;\nuse(x);\n',
      'var x = 1;\nfor (x in o);\nuse(x);\n',
      'for (var x of a) use(x);\n',
      'for (var x = 0; k; ) use(x);\n',
      'function f(x) { var x = 2; use(x); }\n',
      'function f() { let y; { let x = 1; } var x = 2; use(x); }\n',
      'var x = 1;\neval(s);\nuse(x);\n',
      'var x = 1;\nwith (o) { use(x); }\n',
      // Read where its assignment may not have run: before it, or outside the block it stands in.
      'function f() { use(x); var x = 2; }\n',
      'function f() { if (k) { var x = 2; } use(x); }\n',
      'function f() { try { var x = 2; } catch {} use(x); }\n',
      // Read in a parameter's default, which the function's own `var`s do not bind.
      'const x = 1;\nfunction f(u = use(x)) { var x = 2; }\n',
    ])
      expect(reads(text), text).toEqual(['?']);
    // A function declared in a block: sloppy code binds its name in the function around too.
    expect(
      reads('function f() { if (k) { function g() {} } use(g); }\n{ function h() {} }\nuse(h);\n'),
    ).toEqual(['?', '?']);
    expect(reads('function f() { function g() {} use(g); }\nexport function h() {}\nuse(h);\n')).toEqual([
      '-',
      '-',
    ]);
    // A `const` of another name is still told beside them.
    expect(reads('var x = 1;\nx = 2;\nconst y = 3;\nuse(x);\nuse(y);\n')).toEqual(['?', '3']);
  });
});
