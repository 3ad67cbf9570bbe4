/**
 * The HTML report site and its charts, and the results collection it reads.
 * This is the room's face: the command line imports the room only here.
 */
export { loadAnchorSource } from './anchor-source.js';
export { buildReportSite } from './build-site.js';
export { DashboardHistoryUnreadable } from './dashboard-history.js';
export { STEP_RULE, describeStep, historySteps } from './history-steps.js';
export type { StepMeasure } from './history-steps.js';
export { formatRatio } from '../format/index.js';
export { renderTargetHtml } from './own-server-html.js';
export { MCP_TURN } from './palette.js';
export { NoResultsError, historyByTestbed, loadResultsCollection } from './results-collection.js';
export type { ResultsFile } from './results-collection.js';
