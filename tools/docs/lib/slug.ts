/**
 * Route slugs as Redoc 3 (bundled by @redocly/cli 2.77 `build-docs`) builds them: hash routes
 * `#/<tag-slug>`, `#/<tag-slug>/<operation-slug>` and `#/<tag-slug>/<heading-slug>` for the `##` headings of
 * a tag description. Checked against the rendered navigation by docs/test/site.test.ts, so a change in Redoc's
 * scheme fails a test rather than leaving dead links.
 */
export function slugify(text: string): string {
  return text
    .replace(/`[^`]*`/g, '') // Redoc drops inline code from heading slugs
    .trim()
    .toLowerCase()
    .replace(/[*_~]/g, '')
    .replace(/[^\p{Letter}\p{Number}\s'-]/gu, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

export function tagRoute(tagName: string): string {
  return `#/${slugify(tagName)}`;
}

export function operationRoute(tagName: string, operationId: string): string {
  return `${tagRoute(tagName)}/${operationId.toLowerCase()}`;
}

export function headingRoute(tagName: string, heading: string): string {
  return `${tagRoute(tagName)}/${slugify(heading)}`;
}
