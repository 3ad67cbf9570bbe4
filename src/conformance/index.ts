/**
 * The conformance suite as a face: the suite and its columns, the documents
 * and tables it writes, and the stdio child `costlab serve --conformance-world`
 * runs. The bench, the command line and the scripts reach the suite here.
 */
export { COLUMN_IDS } from './columns/column.js';
export type { ColumnId } from './columns/column.js';
export { standardColumns } from './columns/standard-columns.js';
export { conformanceDocument } from './report/conformance-document.js';
export { renderMarkdown } from './report/markdown-report.js';
export { escapeMarkdown, markdownCode } from './report/markdown-text.js';
export { renderTextSweep, renderTextTable } from './report/text-table.js';
export { runConformance } from './suite.js';
export type { StrategyChoice } from './suite.js';
export { serveConformanceFromArgv } from './stdio-host.js';
