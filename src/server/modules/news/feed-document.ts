import { setImmediate as nextTurn } from 'node:timers/promises';
import { decodeHTML } from 'entities';
import { Tokenizer } from 'htmlparser2';
import { BACKGROUND_TURN_MS } from '../../lib/event-loop';

/**
 * Feed XML → a small element tree, read leniently and in slices so the event loop keeps answering
 * (docs/decisions/0024-news-from-the-real-web.md). htmlparser2's tokenizer in XML mode reads past undefined
 * entities, bare ampersands and unclosed elements; what had to be recovered is recorded as a warning.
 * Element names are rewritten to fixed prefixes by namespace (an Atom feed that binds Atom to "a:"
 * reads like any other), and each element carries its resolved xml:base.
 */

export interface XmlNode {
  /** `prefix:local` for the namespaces feeds use (atom, dc, media, …), the local name for RSS and unknown ones. */
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** The element's text before its first child element (CDATA included), entities decoded once; later text is '#text' children. */
  text: string;
  /** The address relative links inside it resolve against (xml:base, else the document's). */
  base: string;
}

export interface XmlDocument {
  root: XmlNode | undefined;
  warnings: string[];
}

const NAMESPACES: Record<string, string> = {
  'http://www.w3.org/2005/Atom': 'atom',
  'http://purl.org/atom/ns#': 'atom',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dc',
  'http://search.yahoo.com/mrss/': 'media',
  'http://search.yahoo.com/mrss': 'media',
  'http://www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://www.w3.org/1999/xhtml': 'xhtml',
  // RSS 0.90 and 1.0 elements read as RSS 2.0's, and RSS 2.0 in the namespaces some publishers gave it.
  'http://purl.org/rss/1.0/': '',
  'http://backend.userland.com/rss2': '',
  'http://backend.userland.com/rss': '',
  'http://blogs.law.harvard.edu/tech/rss': '',
  'http://my.netscape.com/rdf/simple/0.9/': '',
};
/** Prefixes used without a declaration by careless feeds. */
const USUAL_PREFIXES: Record<string, string> = { dc: 'dc', media: 'media', itunes: 'itunes', content: 'content', rdf: 'rdf', atom: 'atom', dcterms: 'dc' };

/** Elements kept: a document of millions of empty elements stops growing the tree here. */
const MAX_NODES = 200_000;
/** Nesting kept in the tree; deeper elements are read for their text only. */
const MAX_DEPTH = 64;
/** A closing tag is matched against this many open elements (a stray one costs no more). */
const CLOSE_SEARCH = 16;
const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;
/** The five XML entities and character references: any other `&` needed recovery. */
const XML_ENTITY = /^(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;

function resolveBase(value: string | undefined, parent: string): string {
  if (!value) return parent;
  try {
    return new URL(value, parent).href;
  } catch {
    return parent;
  }
}

/** Decodes entities once, by HTML's table (a feed's &nbsp; is meant as one); an entity XML does not define is recorded. */
function decodeText(raw: string, warnings: Set<string>): string {
  if (!raw.includes('&')) return raw;
  for (let i = raw.indexOf('&'); i !== -1; i = raw.indexOf('&', i + 1)) {
    if (!XML_ENTITY.test(raw.slice(i + 1, i + 12))) {
      warnings.add('recovered: an undefined entity or a bare "&"');
      break;
    }
  }
  return decodeHTML(raw);
}

/** `prefix:local` by the namespace scope: known namespaces get their fixed prefix, RSS's none. */
function canonical(qname: string, scope: Record<string, string>, isAttr: boolean): string {
  const colon = qname.indexOf(':');
  const prefix = colon > 0 ? qname.slice(0, colon) : '';
  const local = colon > 0 ? qname.slice(colon + 1) : qname;
  if (isAttr && !prefix) return local;
  if (prefix === 'xml' || prefix === 'xmlns') return qname;
  const mapped = scope[prefix];
  if (mapped === undefined) return prefix ? `${prefix}:${local}` : local;
  return mapped ? `${mapped}:${local}` : local;
}

/**
 * The tree as the tokenizer reports it, with a bounded stack: open elements as parallel arrays (no
 * object per element): the tree node text goes to, the tag as written (to match its closing tag), the
 * namespace scope (prefix → canonical prefix). Deep or unbalanced nesting costs linear time.
 */
function treeBuilder(address: string, warnings: Set<string>) {
  const top: XmlNode = { name: '#document', attrs: {}, children: [], text: '', base: address };
  const openNodes: XmlNode[] = [top];
  const openTags: string[] = [''];
  const openScopes: Record<string, string>[] = [{ ...USUAL_PREFIXES }];
  let nodes = 0;

  const addText = (value: string) => {
    const node = openNodes[openNodes.length - 1] ?? top;
    // Text after a child element keeps its place (inline markup in a description).
    if (node.children.length === 0) node.text += value;
    else if (nodes++ < MAX_NODES) node.children.push({ name: '#text', attrs: NO_ATTRS, children: [], text: value, base: node.base });
  };

  /** The element's scope: its parent's, with the namespaces it declares. */
  const scopeOf = (rawAttrs: Record<string, string>, parentScope: Record<string, string>) => {
    let scope = parentScope;
    for (const [k, v] of Object.entries(rawAttrs)) {
      if (k !== 'xmlns' && !k.startsWith('xmlns:')) continue;
      if (scope === parentScope) scope = { ...parentScope };
      scope[k === 'xmlns' ? '' : k.slice(6)] = NAMESPACES[v.trim()] ?? `{${v.trim()}}`;
    }
    return scope;
  };

  const open = (tagName: string, rawAttrs: Record<string, string> | null, selfClosing: boolean) => {
    const depth = openNodes.length;
    const parent = openNodes[depth - 1] ?? top;
    const parentScope = openScopes[depth - 1] ?? {};
    nodes += 1;
    // Too deep or too many: its text goes to the nearest kept ancestor; it is not kept as an element.
    const kept = nodes <= MAX_NODES && depth <= MAX_DEPTH;
    if (nodes === MAX_NODES + 1) warnings.add(`more than ${MAX_NODES} elements: the rest was read for text only`);
    let scope = parentScope;
    let node = parent;
    if (kept) {
      let attrs = NO_ATTRS;
      if (rawAttrs) {
        scope = scopeOf(rawAttrs, parentScope);
        attrs = {};
        for (const [k, v] of Object.entries(rawAttrs)) attrs[canonical(k, scope, true)] = decodeText(v, warnings);
      }
      node = { name: canonical(tagName, scope, false), attrs, children: [], text: '', base: resolveBase(attrs['xml:base'], parent.base) };
      parent.children.push(node);
    }
    if (selfClosing) return;
    openNodes.push(node);
    openTags.push(tagName);
    openScopes.push(scope);
  };

  const close = (name: string) => {
    const last = Math.max(1, openTags.length - CLOSE_SEARCH);
    for (let i = openTags.length - 1; i >= last; i--) {
      if (openTags[i] !== name) continue;
      if (i !== openTags.length - 1) warnings.add('recovered: an element was not closed');
      openNodes.length = i;
      openTags.length = i;
      openScopes.length = i;
      return;
    }
    warnings.add('recovered: a closing tag without its element');
  };

  return { top, addText, open, close, unclosed: () => openTags.length > 1 };
}

/**
 * Parses `xml`; `address` is the document's own address (relative xml:base resolves against it).
 * htmlparser2's tokenizer reads the characters (linear, lenient); treeBuilder builds the tree.
 */
export async function parseXml(xml: string, address: string): Promise<XmlDocument> {
  const warnings = new Set<string>();
  const tree = treeBuilder(address, warnings);
  let tagName = '';
  let rawAttrs: Record<string, string> | null = null;
  let attrName = '';
  let attrValue = '';
  const open = (selfClosing: boolean) => {
    tree.open(tagName, rawAttrs, selfClosing);
    rawAttrs = null;
    maybePause();
  };

  let turnStarted = performance.now();
  let events = 0;
  const tokenizer: Tokenizer = new Tokenizer(
    { xmlMode: true, decodeEntities: false },
    {
      onopentagname(start, end) {
        tagName = xml.slice(start, end);
        rawAttrs = null;
      },
      onattribname(start, end) {
        attrName = xml.slice(start, end);
        attrValue = '';
      },
      onattribdata(start, end) {
        attrValue += xml.slice(start, end);
      },
      onattribentity() {},
      onattribend() {
        (rawAttrs ??= {})[attrName] = attrValue;
      },
      onopentagend: () => open(false),
      onselfclosingtag: () => open(true),
      onclosetag(start, end) {
        tree.close(xml.slice(start, end));
      },
      ontext(start, end) {
        tree.addText(decodeText(xml.slice(start, end), warnings));
        maybePause();
      },
      ontextentity() {},
      oncdata(start, end, offset) {
        tree.addText(xml.slice(start, end - offset));
      },
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {
        if (tree.unclosed()) warnings.add('recovered: an element was not closed');
      },
    },
  );

  /** Every few hundred events, look at the clock: past BACKGROUND_TURN_MS, let the event loop run. */
  function maybePause() {
    if (++events % 256 !== 0) return;
    if (performance.now() - turnStarted > BACKGROUND_TURN_MS) tokenizer.pause();
  }

  tokenizer.write(xml);
  while (!tokenizer.running) {
    await nextTurn();
    turnStarted = performance.now();
    tokenizer.resume();
  }
  tokenizer.end();
  return { root: tree.top.children[0], warnings: [...warnings] };
}

// ---------------------------------------------------------------- reading the tree

export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

export function childrenNamed(node: XmlNode | undefined, name: string): XmlNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

/** The first of `names` that has text (trimmed). */
export function firstText(node: XmlNode | undefined, ...names: string[]): string | undefined {
  for (const name of names) {
    const text = textContent(child(node, name)).trim();
    if (text) return text;
  }
  return undefined;
}

/** Elements whose text no reader sees, written inline in a description or XHTML content (any prefix). */
const HIDDEN_ELEMENTS = new Set(['script', 'style', 'object', 'noscript', 'template', 'iframe']);

/** Inline elements that end a line: a space keeps the words on either side apart. */
const BLOCK_ELEMENTS = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'tr',
  'td',
  'th',
  'hr',
  'section',
  'article',
]);

const localName = (node: XmlNode) => node.name.slice(node.name.lastIndexOf(':') + 1).toLowerCase();

/** The element's text and its descendants' (for markup written inline, unescaped); a script's, style's or object's text is never read. */
export function textContent(node: XmlNode | undefined): string {
  if (!node || HIDDEN_ELEMENTS.has(localName(node))) return '';
  if (node.children.length === 0) return node.text;
  let out = node.text;
  for (const c of node.children) out += c.name !== '#text' && BLOCK_ELEMENTS.has(localName(c)) ? ` ${textContent(c)} ` : textContent(c);
  return out;
}

/** The first descendant with this name, depth first (media:group nests media:content). */
export function findDeep(node: XmlNode | undefined, name: string, depth = 4): XmlNode | undefined {
  if (!node || depth < 0) return undefined;
  for (const c of node.children) {
    if (c.name === name) return c;
    const inner = findDeep(c, name, depth - 1);
    if (inner) return inner;
  }
  return undefined;
}
