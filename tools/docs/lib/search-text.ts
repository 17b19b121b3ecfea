/**
 * Redoc's search builds its snippets from the text tokens of the markdown and drops what lies between them:
 * table cells run together ("shippingKindyesdropship") and so do the lines of a wrapped paragraph ("a\ncombined"
 * becomes "acombined"). The build's copy gives it the whitespace as text: a `&nbsp;` at the end of each table
 * cell (invisible), and the lines of a wrapped paragraph joined by a space (the same paragraph, rendered the
 * same). Code (fenced or indented), tables, headings and HTML are left alone.
 */
const FENCE = /^\s*(`{3,}|~{3,})/;
const SEPARATOR_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function isTableRow(line: string): boolean {
  return /^\s*\|/.test(line) && /\|\s*$/.test(line);
}

/** `| a | b |` → `| a&nbsp; | b&nbsp; |` (escaped pipes and empty cells untouched). */
export function spacedCells(row: string): string {
  return row.replace(/([^\s|])(\s*)(?<!\\)\|/g, (match, last: string, space: string, offset: number) =>
    offset === 0 ? match : `${last}&nbsp;${space}|`,
  );
}

function continues(line: string, next: string | undefined): boolean {
  if (next === undefined || next.trim() === '' || line.trim() === '') return false;
  if (/ {2}$|\\$/.test(line)) return false; // a hard break already
  if (/^\s*#/.test(line) || /^\s*#/.test(next) || FENCE.test(next) || isTableRow(line) || isTableRow(next))
    return false;
  // The next line starts a list item, a quote or a definition-like block of its own.
  if (/^\s*([-*+]|\d+[.)])\s/.test(next) || /^\s*>/.test(next)) return false;
  if (/^\s*(<|-{3,}|={3,}|\*{3,})/.test(next) || /^\s*<\/?[a-z]/i.test(line)) return false;
  return true;
}

export function searchFriendly(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let previousBlank = true;
  let indented = false;
  let joining = false;
  for (const [i, line] of lines.entries()) {
    const marker = FENCE.exec(line)?.[1];
    indented = (indented || previousBlank) && (/^( {4}|\t)/.test(line) || (indented && line.trim() === ''));
    if (indented) {
      out.push(line); // indented code (or an indented list paragraph, left as it is)
    } else if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      out.push(line);
    } else if (marker) {
      fence = marker;
      out.push(line);
    } else if (isTableRow(line)) {
      out.push(SEPARATOR_ROW.test(line) ? line : spacedCells(line));
    } else {
      // A wrapped line joins the next one: the same paragraph, rendered the same.
      if (joining) out[out.length - 1] = `${out.at(-1)!.trimEnd()} ${line.trim()}`;
      else out.push(line);
      joining = continues(line, lines[i + 1]);
      previousBlank = line.trim() === '';
      continue;
    }
    joining = false;
    previousBlank = line.trim() === '';
  }
  return out.join('\n');
}

/** Applies `searchFriendly` to every `description` of the document (the docs build's copy). */
export function searchFriendlyDescriptions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) searchFriendlyDescriptions(item);
  } else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'description' && typeof value === 'string') record[key] = searchFriendly(value);
      else searchFriendlyDescriptions(value);
    }
  }
}
