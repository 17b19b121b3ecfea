// A tsconfig.json or jsconfig.json is JSON with comments and trailing commas, as TypeScript reads it; where its
// text stops being that, get-tsconfig still reads what it can, so the run checks it itself.
import { describe, expect, it } from 'vitest';
import { jsoncErrorAt, parseJsonc } from './jsonc.ts';

describe('jsoncErrorAt', () => {
  it('reads what TypeScript reads: comments, trailing commas, a BOM, an empty file', () => {
    for (const text of [
      '{}',
      '',
      '// nothing yet\n',
      '\uFEFF{ "compilerOptions": { "strict": true } }\n',
      '/* The app. */\n{\n  // aliases\n  "compilerOptions": { "paths": { "@app/*": ["./src/*",], }, "target": "es2022", },\n  "include": ["src"],\n}\n',
      '{ "a": [1, -2.5e3, true, false, null, { "b": "\\u00e9\\n\\"" }] }',
    ])
      expect(jsoncErrorAt(text), text).toBe(-1);
  });

  it('the offset of the first syntax error', () => {
    for (const [text, at] of [
      ['{ "a": 1 x }', 9],
      ['{ "a": 1 "b": 2 }', 9],
      ["{ 'a': 1 }", 2],
      ['{ a: 1 }', 2],
      ['{ "a": 1,, }', 9],
      ['{ "a": [1,,2] }', 10],
      ['{ "a": 01 }', 7],
      ['{ "a": "x\n" }', 7],
      ['{ "a": 1 ', 9],
      ['{ "a": 1 } }', 11],
      ['{ /* open', 2],
      ['[]', 0],
      ['{ "a": tru }', 7],
    ] as const)
      expect(jsoncErrorAt(text), text).toBe(at);
  });
});

describe('parseJsonc', () => {
  it('the value, comments and trailing commas dropped (not inside strings); undefined where it has an error or is empty', () => {
    expect(
      parseJsonc(
        '\uFEFF/* The app. */\n{\n  // aliases\n  "compilerOptions": { "baseUrl": "./src", "paths": { "@app/*": ["./src/*",], }, },\n  "x": "a // b /* c */ ,}",\n}\n',
      ),
    ).toEqual({
      compilerOptions: { baseUrl: './src', paths: { '@app/*': ['./src/*'] } },
      x: 'a // b /* c */ ,}',
    });
    expect(parseJsonc('{ "a": "\\"", }')).toEqual({ a: '"' });
    for (const text of ['', '// nothing yet\n', '{ "a": 1 x }', '{ "a": 1 '])
      expect(parseJsonc(text), text).toBeUndefined();
  });
});
