/**
 * Redoc 3's footer loads its attribution logo from cdn.redoc.ly at runtime, even in an `--inlineBundle` build.
 * The site must work offline and never leave the host, so the logo is swapped for an inline image with the same
 * wording; the attribution link itself stays.
 */
const LOGO_FULL = svgDataUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="16" viewBox="0 0 56 16">' +
    '<text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="600" fill="#0044d4">Redocly</text></svg>',
);
const LOGO_MINI = svgDataUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">' +
    '<circle cx="8" cy="8" r="7" fill="#0044d4"/></svg>',
);

function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

const REPLACEMENTS: [string, string][] = [
  ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', LOGO_FULL],
  ['https://cdn.redoc.ly/redoc/logo-mini.svg', LOGO_MINI],
];

export function makeOffline(html: string): string {
  let out = html;
  for (const [from, to] of REPLACEMENTS) out = out.split(from).join(to);
  return out;
}

/**
 * Asset URLs in the static markup that would make the browser leave the host, plus the runtime URLs we know of.
 * The bundle also holds URL constants it never fetches on this page (icon bases, docs links), so only these are
 * checked statically; docs/test/site.test.ts checks every request the page really makes.
 */
export function remoteAssetUrls(html: string): string[] {
  const found = new Set<string>();
  for (const [from] of REPLACEMENTS) if (html.includes(from)) found.add(from);
  for (const m of html.matchAll(
    /<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)="(https?:\/\/[^"]+)"/g,
  )) {
    found.add(m[1]!);
  }
  return [...found];
}
