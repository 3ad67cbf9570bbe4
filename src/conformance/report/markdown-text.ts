/**
 * Text that came from outside — a server's or tool's name, a description, an
 * error message, a file path — made inert for a Markdown page, whether it lands
 * in a table cell or in running text. Every Markdown writer in costlab passes
 * such text through `escapeMarkdown` (and `markdownCode` for code style): a
 * target's reports are piped into CI job summaries and pull-request comments,
 * where a hostile name must not become a link, an image, HTML, a new table row
 * or a fake verdict.
 *
 * It lives in the conformance layer, the lowest one that writes Markdown, so
 * that src/conformance, bench, cli and scripts may all import it under the
 * one-way layer rule; the kernel writes no Markdown and stays free of it.
 */

/** How many characters of one outside string a page shows, by default, before the rest is cut and counted. */
export const MARKDOWN_TEXT_LIMIT = 300;

/**
 * Line breaks end a table row (and a list item, and can start a heading);
 * other control characters and the bidirectional overrides can make what a
 * reader sees differ from what is there. Each becomes one space.
 */
const BREAKS_AND_CONTROLS = /\r\n|[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `&`, `<`, `>` as entities (no HTML, no autolink, no entity smuggled in);
 * every other character that opens Markdown syntax on a line's inside behind a
 * backslash: `\` itself, code spans, emphasis, links and images (`[`, `]`,
 * with `!` and `(` then inert), table cells (`|`), strikethrough, headings and
 * math (`$`, which GitHub renders).
 */
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const SYNTAX = /[&<>\\`*[\]|~#$]/g;
/**
 * An underscore between two letters or digits can neither open nor close
 * emphasis (CommonMark's flanking rules), so `no_matching_grant` stays as it
 * reads; any other underscore is escaped.
 */
const LOOSE_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/**
 * GFM turns bare `scheme://…`, `www.…` and `name@host` into links (and
 * GitHub `@name` into a mention): a backslash splits each such run, so the
 * text reads the same and links nowhere.
 */
const BARE_LINK = /:(?=\/\/)|(?<=\bwww)\.|@/giu;

/**
 * One outside string as inert Markdown text: safe in a table cell and in
 * running text alike. Longer than `limit` characters (code points), it is cut
 * there and a marker says how many were left out.
 */
export function escapeMarkdown(text: string, limit: number = MARKDOWN_TEXT_LIMIT): string {
  const points = Array.from(text);
  const shown = points.length > limit ? points.slice(0, limit).join('') : text;
  const escaped = shown
    .replace(BREAKS_AND_CONTROLS, ' ')
    .replace(SYNTAX, (char) => ENTITIES[char] ?? `\\${char}`)
    .replace(LOOSE_UNDERSCORE, '\\_')
    .replace(BARE_LINK, (char) => `\\${char}`);
  if (points.length <= limit) return escaped;
  const left = points.length - limit;
  return `${escaped}… (${left} more character${left === 1 ? '' : 's'})`;
}

/**
 * Outside text in code style. A Markdown code span would show the escapes
 * literally, so the text goes escaped inside `<code>`, which GitHub and
 * CommonMark render as code and inside which Markdown escapes still apply.
 */
export function markdownCode(text: string, limit: number = MARKDOWN_TEXT_LIMIT): string {
  return `<code>${escapeMarkdown(text, limit)}</code>`;
}
