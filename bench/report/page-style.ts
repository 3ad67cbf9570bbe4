/**
 * The report's stylesheet, inlined into the page so it renders the same from a file
 * system, an archived CI artifact or an air-gapped machine: no CDN, no web fonts.
 */
export const PAGE_STYLE = `
:root {
  color-scheme: light;
  --ink: #1d1d1f;
  --muted: #5f6368;
  --rule: #e3e3e3;
  --accent: #3366aa;
  --warn-bg: #fff6e0;
  --warn-rule: #e0a800;
}
* { box-sizing: border-box; }
body {
  margin: 0;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink);
  background: #fafafa;
}
main {
  max-width: 1120px;
  margin: 0 auto;
  padding: 28px 32px 48px;
  background: white;
  min-height: 100vh;
  box-shadow: 0 0 0 1px var(--rule);
}
header h1 { font-size: 26px; margin: 0 0 4px; letter-spacing: -0.01em; }
header .lede { color: var(--muted); margin: 0 0 12px; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
h2 { font-size: 20px; margin: 40px 0 8px; padding-top: 16px; border-top: 1px solid var(--rule); }
h3 { font-size: 15px; margin: 20px 0 6px; }
p { max-width: 78ch; }
nav.toc { margin: 12px 0 0; padding: 10px 14px; background: #f4f6fa; border-radius: 6px; }
nav.toc ul { margin: 0; padding-left: 0; list-style: none; columns: 2; }
time { white-space: nowrap; }
a { color: var(--accent); }
.notice {
  background: var(--warn-bg);
  border-left: 4px solid var(--warn-rule);
  padding: 8px 12px;
  border-radius: 4px;
  max-width: none;
}
.summary-strip { display: flex; flex-wrap: wrap; gap: 10px; margin: 14px 0; padding: 0; list-style: none; }
.summary-strip li { border: 1px solid var(--rule); border-radius: 6px; padding: 8px 12px; min-width: 150px; }
.summary-strip .k { display: block; color: var(--muted); font-size: 12px; }
.summary-strip .v { font-size: 18px; font-weight: 600; font-variant-numeric: tabular-nums; }
figure.chart { margin: 12px 0 8px; overflow-x: auto; }
/* Drawn at phone width already: shown at natural size, a wider one (a long history) scrolls rather than shrinking its
   text. */
figure.chart svg { display: block; }
figure.chart figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; max-width: 78ch; }
.table-wrap { overflow-x: auto; margin: 12px 0 16px; }
table { border-collapse: collapse; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: 4px 0 6px; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
thead th { border-bottom: 2px solid #bbb; font-weight: 600; vertical-align: bottom; max-width: 9em; }
thead tr.groups th { max-width: none; white-space: nowrap; }
thead tr.groups th, thead tr.groups td {
  border-bottom: 1px solid #bbb;
  text-align: center;
  color: var(--muted);
  font-weight: 600;
}
td { white-space: nowrap; }
tbody th { font-weight: 500; white-space: nowrap; }
th.num, td.num { text-align: right; }
td.num { font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:hover { background: #f6f8fc; }
.table-note { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
dl.definitions { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; font-size: 14px; }
dl.definitions dt { color: var(--muted); }
dl.definitions dd {
  margin: 0;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 13px;
  overflow-wrap: anywhere;
}
ol.rules li { margin: 3px 0; max-width: 90ch; }
ul.files li { font-size: 13px; overflow-wrap: anywhere; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--rule); padding-top: 10px; }
/* Phone width (420 px and below): the page's margins shrink, charts (drawn ≤ 400 px wide) keep their size, wide
   tables scroll inside their own box. */
@media (max-width: 600px) {
  main { padding: 14px 10px 32px; box-shadow: none; }
  header h1 { font-size: 21px; }
  h2 { font-size: 18px; }
  nav.toc ul { columns: 1; }
  .summary-strip li { min-width: 0; flex: 1 1 40%; }
  dl.definitions { grid-template-columns: 1fr; gap: 0 0; }
  dl.definitions dd { margin-bottom: 6px; }
  td, tbody th { white-space: nowrap; }
}
@media print { body { background: white; } main { box-shadow: none; } }
`;
