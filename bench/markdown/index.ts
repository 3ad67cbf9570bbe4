/**
 * The Markdown writers: the bench's report, the gate's verdict, the map, the
 * sweep, the profile summary, the official suite, the own-server report, and
 * the README's claims.
 * A writer never measures.
 * This is the room's face: the command line imports the room only here.
 */
export { renderMarkdownTable } from './gate-markdown.js';
export { pointAt } from './map-markdown.js';
export { renderOfficialMarkdown } from './official-markdown.js';
export { renderTargetMarkdown } from './own-server-markdown.js';
export { publishedComparisonLines } from './published-comparison.js';
export { updateReadmeClaims } from './readme-claims.js';
export { checkSweepTargets, failingSweepTargets } from './sweep-markdown.js';
export { makeupLines, shareGapSentences, twoWorldsLines, worldsOf } from './two-worlds.js';
