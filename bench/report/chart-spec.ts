/**
 * What the report's Vega-Lite charts share in their specs: the schema they
 * are written against, and the legend the phone-width charts carry (on top,
 * two columns: four series in one row overflow a 420 px screen).
 */
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

export const TWO_COLUMN_TOP_LEGEND = { orient: 'top', direction: 'horizontal', columns: 2, title: null } as const;
