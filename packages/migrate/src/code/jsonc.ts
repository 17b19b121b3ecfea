const STRING = /"(?:[^"\\\r\n]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w$])/y;
const LINE_COMMENT = /\/\/[^\r\n]*/y;

/**
 * Where the text of a tsconfig.json or jsconfig.json stops being what TypeScript reads without an error: JSON with
 * comments and trailing commas, an object at the root (or nothing). The offset of the first error, or -1. Only
 * the place is told, never the text there (a config may hold anything). Not jsonc-parser (tried, 3.3.1): its
 * `main` is a UMD build with relative requires inside its factory, which a bundler targeting Node (esbuild's
 * default fields, the tests' CLI bundles) leaves unresolved, and its ESM build is not loadable by Node.
 */
export function jsoncErrorAt(text: string): number {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (at: number): never => {
    throw at;
  };
  /** Past what `re` (sticky) matches at `i`, or a failure there. */
  const match = (re: RegExp) => {
    re.lastIndex = i;
    if (!re.test(text)) fail(i);
    i = re.lastIndex;
  };
  const space = () => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (text.startsWith('//', i)) match(LINE_COMMENT);
      else if (text.startsWith('/*', i)) {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail(i);
        i = end + 2;
      } else return;
    }
  };
  const string = () => match(STRING);
  /** Items up to `close`, each read by `item`, separated by commas, one trailing comma allowed. */
  const list = (close: string, item: () => void) => {
    i++;
    space();
    while (text[i] !== close) {
      item();
      space();
      if (text[i] === ',') {
        i++;
        space();
      } else if (text[i] !== close) fail(i);
    }
    i++;
  };
  const object = () =>
    list('}', () => {
      if (text[i] !== '"') fail(i);
      string();
      space();
      if (text[i] !== ':') fail(i);
      i++;
      space();
      value();
    });
  const value = (): void => {
    const c = text[i];
    if (c === '{') object();
    else if (c === '[') list(']', value);
    else if (c === '"') string();
    else match(LITERAL);
  };
  try {
    space();
    if (i === text.length) return -1;
    if (text[i] !== '{') fail(i);
    object();
    space();
    return i === text.length ? -1 : i;
  } catch (at) {
    return typeof at === 'number' ? at : i;
  }
}

const TEXT_OR_COMMENT = /("(?:[^"\\\r\n]|\\.)*")|\/\/[^\r\n]*|\/\*[\s\S]*?\*\//g;
const TEXT_OR_TRAILING_COMMA = /("(?:[^"\\\r\n]|\\.)*")|,(\s*[}\]])/g;

/**
 * The value of a text {@link jsoncErrorAt} finds no error in (JSON with comments and trailing commas): undefined
 * where it has one, or is empty.
 */
export function parseJsonc(text: string): unknown {
  if (jsoncErrorAt(text) >= 0) return undefined;
  const json = text
    .replace(/^\uFEFF/, '')
    .replace(TEXT_OR_COMMENT, (_, s: string | undefined) => s ?? ' ')
    .replace(
      TEXT_OR_TRAILING_COMMA,
      (_, s: string | undefined, close: string | undefined) => s ?? close ?? '',
    );
  return json.trim() ? JSON.parse(json) : undefined;
}
