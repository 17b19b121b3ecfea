import { parse as babelParse, type ParserOptions } from '@babel/parser';
import * as recast from 'recast';

/**
 * Parses with Babel (every syntax of current JavaScript and TypeScript, JSX included) through recast, which
 * reprints only the nodes a rewrite touched and copies everything else, comments included, from the source.
 */
export type Ast = ReturnType<typeof recast.parse>;

const TS = /\.(?:ts|mts|cts)$/i;
const TSX = /\.tsx$/i;

function options(file: string): ParserOptions {
  // `.ts` is parsed without JSX: `<T>value` is a type assertion there, not an element.
  const plugins: ParserOptions['plugins'] = TS.test(file)
    ? ['typescript']
    : TSX.test(file)
      ? ['typescript', 'jsx']
      : ['jsx', 'typescript'];
  return {
    sourceType: 'unambiguous',
    allowReturnOutsideFunction: true,
    // recast needs the tokens to reprint only what changed.
    tokens: true,
    plugins: [...plugins, 'decorators', 'importAttributes', 'explicitResourceManagement'],
  } as ParserOptions;
}

/** Parses with Babel alone (no tokens, nothing to reprint): a tree to read. */
export const parsePlain = (text: string, file: string): ReturnType<typeof babelParse> =>
  babelParse(text, { ...options(file), tokens: false });

/**
 * Parses with Babel alone; the message when the text does not parse. A byte order mark is no part of the code
 * (loaders drop it, as recast does before the rewrite parses): Babel refuses one before a `#!` line.
 */
export function checkParses(text: string, file: string): string | undefined {
  try {
    parsePlain(text.replace(/^\uFEFF/, ''), file);
    return undefined;
  } catch (e) {
    return `does not parse: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** The text each tree was parsed from: what its nodes' `start` and `end` offsets index. */
const parsedTexts = new WeakMap<object, string>();

export function parseSource(text: string, file: string): Ast {
  const opts = options(file);
  let parsed = text;
  const ast = recast.parse(text, {
    parser: {
      parse: (s: string) => {
        parsed = s;
        return babelParse(s, opts);
      },
    },
  });
  parsedTexts.set(ast, parsed);
  return ast;
}

/**
 * The text recast handed the parser, which the nodes' offsets (`start`, `end`) index: recast ends its lines with
 * `\n` (a CRLF file's are one character shorter) and may drop a byte order mark, so code is sliced from this text,
 * never from the file's.
 */
export const parsedText = (ast: Ast): string => parsedTexts.get(ast) ?? '';

/**
 * Reprints the tree. What recast does not keep of the source is put back: its byte order mark, its `#!` line
 * (recast prints it without its line break as soon as the first statement changes) and its line endings (recast
 * ends the lines it prints with the platform's).
 */
export function printAst(ast: Ast, source: string): string {
  const program = ast.program;
  const eol = /\r\n?|\n/.exec(source)?.[0] ?? '\n';
  const bom = source.startsWith('\uFEFF') ? '\uFEFF' : '';
  const interpreter: { value: string } | null | undefined = program.interpreter;
  program.interpreter = null;
  const head = `${bom}${interpreter ? `#!${interpreter.value}${eol}` : ''}`;
  return head + printProgram(ast, eol, indentStep(source)).replace(/^\uFEFF/, '');
}

/**
 * The source's indentation step, guessed as recast guesses it (the commonest change of indentation from one
 * non-blank line to the next) but without the lines inside block comments: the ` * ` lines of JSDoc blocks made
 * recast print the functions it rewrote one space deep in a file of two-space code. Undefined (recast guesses)
 * where a line is indented with tabs.
 */
function indentStep(source: string): number | undefined {
  const counts = new Map<number, number>();
  let last = 0;
  for (const line of source.split(/\r\n?|\n/)) {
    const indent = /^[ \t]*/.exec(line)![0];
    if (indent.includes('\t')) return undefined;
    const rest = line.slice(indent.length);
    if (!rest || rest.startsWith('*')) continue;
    const step = Math.abs(indent.length - last);
    if (step > 0) counts.set(step, (counts.get(step) ?? 0) + 1);
    last = indent.length;
  }
  let best: number | undefined;
  for (const [step, n] of counts)
    if (best === undefined || n > counts.get(best)! || (n === counts.get(best) && step < best)) best = step;
  return best;
}

function printProgram(ast: Ast, eol: string, tabWidth: number | undefined): string {
  const program = ast.program;
  // recast prints a directive ('use strict') of a changed program with a second semicolon: as plain
  // statements they print as written.
  if (program.directives?.length && program.body.length) {
    // With their comments (a licence above 'use strict').
    const stmts = program.directives.map(
      (d: { value: { value: string; extra?: { raw?: string } }; comments?: unknown[] }) => ({
        type: 'ExpressionStatement',
        expression: {
          type: 'StringLiteral',
          value: d.value.value,
          extra: { raw: d.value.extra?.raw, rawValue: d.value.value },
        },
        comments: d.comments,
      }),
    );
    program.directives = [];
    program.body.unshift(...stmts);
  }
  return recast.print(ast, { quote: 'single', lineTerminator: eol, ...(tabWidth && { tabWidth }) }).code;
}

/** A new expression from code (placeholders like `__pp0__` are replaced by the caller). */
export function parseExpressionCode(code: string): recast.types.namedTypes.Node {
  const ast = recast.parse(`(${code});`, {
    parser: { parse: (s: string) => babelParse(s, { sourceType: 'module', plugins: ['typescript'] }) },
  });
  const stmt = ast.program.body[0];
  return stmt.expression.extra?.parenthesized ? stripParens(stmt.expression) : stmt.expression;
}

function stripParens(node: recast.types.namedTypes.Node) {
  const n = node as { extra?: Record<string, unknown> };
  if (n.extra) n.extra = { ...n.extra, parenthesized: false };
  return node;
}

/** New statements from code. */
export function parseStatementsCode(code: string, file: string): recast.types.namedTypes.Statement[] {
  return parseSource(code, file).program.body;
}
