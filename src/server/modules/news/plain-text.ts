import { Tokenizer } from 'htmlparser2';

/**
 * Markup → plain text in linear time: htmlparser2's tokenizer reads the markup (no regular expression
 * over it), entities are decoded once, the input is capped before it is read and reading stops as
 * soon as the text is long enough (docs/decisions/0024-news-from-the-real-web.md). React escapes
 * what is left; nothing here produces markup.
 */

export const TITLE_MAX = 300;
export const SUMMARY_MAX = 2000;
/** Markup read per field: enough for a long article's first paragraphs, bounded for a hostile one. */
const INPUT_CAP = 256 * 1024;

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'iframe', 'template', 'object', 'svg', 'math', 'head', 'title']);
/** Elements that end a line: a space keeps their words apart. */
const BREAKS = new Set([
  'br',
  'p',
  'div',
  'li',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'hr',
  'section',
  'article',
  'header',
  'footer',
  'ul',
  'ol',
  'dd',
  'dt',
  'figcaption',
]);

/** Collapses whitespace (and control characters) and cuts to `max` characters with an ellipsis. */
export function tidy(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- control characters are noise in a title or summary
  const flat = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * Reads `html` with htmlparser2's tokenizer (its Parser keeps a stack that deep nesting makes
 * quadratic; no stack is needed here): the visible text, and whether any tag was a known element,
 * had attributes or a name no element has.
 */
function scan(html: string, max: number, decodeEntities: boolean): { text: string; markup: boolean } {
  const src = html.length > INPUT_CAP ? html.slice(0, INPUT_CAP) : html;
  let text = '';
  let hidden = 0;
  let markup = false;
  let name = '';
  let attributes = 0;
  const append = (chunk: string) => {
    if (hidden > 0) return;
    text += chunk;
    // Long enough: the rest of the markup is not read.
    if (text.length > max * 2) tokenizer.pause();
  };
  const openTag = (selfClosing: boolean) => {
    if (KNOWN.has(name) || attributes > 0 || !/^[a-z][a-z0-9-]*$/.test(name)) markup = true;
    if (HIDDEN.has(name) && !selfClosing) hidden += 1;
    if (BREAKS.has(name)) text += ' ';
  };
  const tokenizer: Tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities },
    {
      onopentagname(start, end) {
        name = src.slice(start, end).toLowerCase();
        attributes = 0;
      },
      onattribname() {
        attributes += 1;
      },
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onopentagend() {
        openTag(false);
      },
      onselfclosingtag() {
        openTag(true);
      },
      onclosetag(start, end) {
        const closing = src.slice(start, end).toLowerCase();
        if (HIDDEN.has(closing) && hidden > 0) hidden -= 1;
        if (BREAKS.has(closing)) text += ' ';
      },
      ontext(start, end) {
        append(src.slice(start, end));
      },
      ontextentity(codepoint) {
        append(String.fromCodePoint(codepoint));
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(src);
  if (tokenizer.running) tokenizer.end();
  return { text, markup };
}

/**
 * HTML → plain text: hidden elements dropped with their content, entities decoded once, whitespace
 * collapsed, cut to `max`. Text that still looks like markup after decoding (double-escaped HTML) has
 * its tags removed once more, without decoding entities again.
 */
export function htmlToText(html: string | undefined | null, max: number): string {
  if (!html) return '';
  const first = scan(html, max, true);
  const text = first.text.includes('<') ? stripTags(first.text, max) : first.text;
  return tidy(text, max);
}

/** Tags that are real HTML (or carry attributes) removed, everything else kept as written. */
function stripTags(text: string, max: number): string {
  const probe = scan(text, max, false);
  return probe.markup ? probe.text : text;
}

/**
 * A field that may be text or HTML (an RSS title, a title without a declared type): read as text
 * unless it has tags of real HTML elements or attributes, so "History of the <blink> tag" stays
 * readable while `<b>x</b>` or `<img onerror=…>` are read as markup.
 */
export function textOrHtml(value: string | undefined | null, max: number): string {
  if (!value) return '';
  if (!value.includes('<')) return tidy(value.includes('&') ? scan(value, max, true).text : value, max);
  const probe = scan(value, max, true);
  return tidy(probe.markup ? probe.text : value.slice(0, INPUT_CAP), max);
}

/** Current HTML elements: a tag of one of these means the text is markup. */
const KNOWN = new Set(
  (
    'a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption cite code col colgroup data ' +
    'datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hr html i ' +
    'iframe img input ins kbd label legend li link main map mark menu meta meter nav noscript object ol optgroup option output p param ' +
    'picture pre progress q rp rt ruby s samp script section select slot small source span strike strong style sub summary sup svg table tbody ' +
    'td template textarea tfoot th thead time title tr track tt u ul var video wbr center big math'
  ).split(' '),
);
