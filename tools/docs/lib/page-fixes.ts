/**
 * Fixes of Redoc's layout seen in Chromium, and the styles of the Run bar and the folded setup part the loader
 * adds to runnable code.
 */
export const PAGE_CSS = `
/* Guides and the introduction have nothing for the right-hand column: their text takes the whole width. */
[data-section-id]:not([data-item-kind="httpItem"]) [data-testid="right-panel"]:empty{display:none}
[data-section-id]:not([data-item-kind="httpItem"]) [data-testid="middle-panel"]:has(+ [data-testid="right-panel"]:empty){
width:100%;max-width:1100px}
/* Code in tables (package names, field names) breaks at its hyphens, never inside a word ("ratelimi t"). */
main td code,main th code{word-break:normal!important;overflow-wrap:normal!important}
.pp-run-bar{display:flex;align-items:center;gap:10px;flex-wrap:wrap;margin:8px 0 12px;font:13px/1.4 system-ui,sans-serif}
.pp-run-bar button{font:inherit;font-weight:600;padding:5px 14px;border-radius:6px;border:1px solid #1a56db;background:#1a56db;
color:#fff;cursor:pointer}
.pp-run-bar button:hover{background:#1646b5}
.pp-run-bar button:disabled{opacity:.6;cursor:progress}
.pp-run-bar button.pp-copy{background:transparent;color:inherit;border-color:currentColor;font-weight:500}
.pp-run-bar button.pp-copy:hover{background:rgba(127,127,127,.15)}
.pp-run-bar span{color:inherit;opacity:.75}
/* A sample's setup part (imports, client, inputs) folded; Redoc's own block stays in the page, hidden. */
pre[hidden]{display:none!important}
.pp-fold{margin:0 0 8px;width:100%;max-width:100%;min-width:0}
.pp-fold pre{margin:0!important;max-width:100%;overflow-x:auto}
.pp-fold>pre:first-child,.pp-fold>details:first-child>pre{border-bottom-left-radius:0!important;border-bottom-right-radius:0!important}
.pp-fold details+pre{border-top-left-radius:0!important;border-top-right-radius:0!important}
.pp-setup summary{cursor:pointer;padding:6px 12px;font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace;
background:rgba(127,127,127,.16);color:inherit;border-radius:4px 4px 0 0}
.pp-setup[open] summary{border-radius:4px 4px 0 0}
.pp-setup summary:focus-visible{outline:2px solid #1a56db;outline-offset:1px}
`;

/** No favicon request: an inline icon (the page is one file and must make no request but itself). */
const FAVICON =
  '<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E%3Crect width=%2216%22 height=%2216%22 rx=%223%22 fill=%22%231a56db%22/%3E%3C/svg%3E">';

export function pageFixes(html: string): string {
  if (html.includes('rel="icon"')) return html;
  const at = html.indexOf('</head>');
  if (at === -1) throw new Error('the page has no </head>');
  return `${html.slice(0, at)}${FAVICON}\n${html.slice(at)}`;
}
