/**
 * Renders a Vega-Lite spec to an SVG string at build time, in Node, with no canvas
 * and no network: the report is a single file that opens from the file system.
 *
 * This is the only module that touches vega, so a change of charting library stays
 * here. Each chart's marks carry their figures in `aria-label` (from the spec's
 * `description` encoding), which is what screen readers, tests and a curious reader
 * with view-source all use.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { describeThrown } from '../../src/kernel/index.js';

/** Shared look: the page's font stack, quiet axes, no frame around each view. */
const CHART_CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  background: 'white',
  view: { stroke: null },
  axis: {
    labelFontSize: 11,
    titleFontSize: 12,
    titleFontWeight: 600,
    gridColor: '#e8e8e8',
    domainColor: '#888',
    tickColor: '#888',
  },
  legend: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600 },
  header: { labelFontSize: 13, labelFontWeight: 600, titleFontSize: 12 },
  title: { fontSize: 14, fontWeight: 600, anchor: 'start' },
} as const;

export interface ChartSvgOptions {
  /** Short name, becomes the SVG's `<title>`. */
  readonly title: string;
  /** One-sentence summary for assistive technology (the root `aria-label`). */
  readonly summary: string;
}

export interface RenderedChart {
  readonly svg: string;
  /** Warnings vega-lite or vega raised while compiling; empty for a clean spec. */
  readonly warnings: readonly string[];
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A logger that keeps warnings for the caller instead of printing them mid-progress. */
function collectingLogger(sink: string[]): vega.LoggerInterface {
  return vega.logger(vega.Warn, 'warn', (_method, level, args) => {
    sink.push(`${level} ${args.map(describeThrown).join(' ')}`.trim());
  });
}

/**
 * Compiles and renders a chart. vega's SVG root carries no accessible name of its
 * own, so one is added to the opening tag together with a `<title>` (the mark paths
 * are vega's own, untouched).
 */
export async function renderChartSvg(spec: TopLevelSpec, options: ChartSvgOptions): Promise<RenderedChart> {
  const warnings: string[] = [];
  const logger = collectingLogger(warnings);
  const compiled = compile({ ...spec, config: { ...CHART_CONFIG, ...spec.config } } as TopLevelSpec, { logger }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger });
  try {
    const raw = await view.toSVG();
    const named = raw.replace(
      /^<svg\b([^>]*)>/,
      (_tag, attributes: string) =>
        `<svg${attributes} role="graphics-document document" aria-roledescription="chart" ` +
        `aria-label="${escapeXml(options.summary)}"><title>${escapeXml(options.title)}</title>`,
    );
    if (named === raw) throw new Error(`vega produced no <svg> root for chart '${options.title}'`);
    return { svg: named, warnings };
  } finally {
    view.finalize();
  }
}
