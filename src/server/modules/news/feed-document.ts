import { setImmediate as nextTurn } from 'node:timers/promises';
import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';

/**
 * Feed XML → a small element tree, read leniently and in slices so the event loop keeps answering
 * (docs/decisions/0024-news-from-the-real-web.md). htmlparser2 in XML mode recovers from undefined
 * entities, bare ampersands and unclosed elements; what it had to recover is recorded as a warning.
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
  // RSS 0.90 and 1.0 elements read as RSS 2.0's.
  'http://purl.org/rss/1.0/': '',
  'http://my.netscape.com/rdf/simple/0.9/': '',
};
/** Prefixes used without a declaration by careless feeds. */
const USUAL_PREFIXES: Record<string, string> = { dc: 'dc', media: 'media', itunes: 'itunes', content: 'content', rdf: 'rdf', atom: 'atom', dcterms: 'dc' };

/** Characters parsed between two turns of the event loop. */
const SLICE = 64 * 1024;
/** Elements kept: a document of millions of empty elements stops growing the tree here. */
const MAX_NODES = 200_000;
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

/** Parses `xml`; `address` is the document's own address (relative xml:base resolves against it). */
export async function parseXml(xml: string, address: string): Promise<XmlDocument> {
  const warnings = new Set<string>();
  const top: XmlNode = { name: '#document', attrs: {}, children: [], text: '', base: address };
  const stack: XmlNode[] = [top];
  // Namespace scopes: each element's bindings (prefix → canonical prefix), pushed with it.
  const scopes: Record<string, string>[] = [{ ...USUAL_PREFIXES }];
  let nodes = 0;
  let inCdata = false;
  // htmlparser2 reports a self-closing tag as an implied close: only one closed later, or at the end, was unclosed.
  let justOpened: XmlNode | undefined;
  let ending = false;

  const canonical = (qname: string, scope: Record<string, string>, isAttr: boolean): string => {
    const colon = qname.indexOf(':');
    const prefix = colon > 0 ? qname.slice(0, colon) : '';
    const local = colon > 0 ? qname.slice(colon + 1) : qname;
    if (isAttr && !prefix) return local;
    if (prefix === 'xml' || prefix === 'xmlns') return qname;
    const mapped = scope[prefix];
    if (mapped === undefined) return prefix ? `${prefix}:${local}` : local;
    return mapped ? `${mapped}:${local}` : local;
  };

  const parser = new Parser(
    {
      onopentag(qname, raw) {
        const parentScope = scopes[scopes.length - 1] ?? {};
        let scope = parentScope;
        for (const [k, v] of Object.entries(raw)) {
          if (k === 'xmlns' || k.startsWith('xmlns:')) {
            if (scope === parentScope) scope = { ...parentScope };
            scope[k === 'xmlns' ? '' : k.slice(6)] = NAMESPACES[v.trim()] ?? `{${v.trim()}}`;
          }
        }
        scopes.push(scope);
        const attrs: Record<string, string> = {};
        for (const [k, v] of Object.entries(raw)) attrs[canonical(k, scope, true)] = decodeText(v);
        const parent = stack[stack.length - 1] ?? top;
        const node: XmlNode = { name: canonical(qname, scope, false), attrs, children: [], text: '', base: resolveBase(attrs['xml:base'], parent.base) };
        nodes += 1;
        if (nodes <= MAX_NODES) parent.children.push(node);
        else warnings.add(`more than ${MAX_NODES} elements: the rest was not read`);
        stack.push(node);
        justOpened = node;
      },
      onclosetag(_name, isImplied) {
        if (isImplied && (ending || justOpened !== stack[stack.length - 1])) warnings.add('recovered: an element was not closed');
        justOpened = undefined;
        if (stack.length > 1) stack.pop();
        if (scopes.length > 1) scopes.pop();
      },
      ontext(text) {
        const node = stack[stack.length - 1] ?? top;
        justOpened = undefined;
        const value = inCdata ? text : decodeText(text);
        // Text after a child element keeps its place (inline markup in a description).
        if (node.children.length === 0) node.text += value;
        else if (nodes++ < MAX_NODES) node.children.push({ name: '#text', attrs: {}, children: [], text: value, base: node.base });
      },
      oncdatastart() {
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
    },
    { xmlMode: true, decodeEntities: false },
  );

  /** Decodes entities once, by HTML's table (a feed's &nbsp; is meant as one); an entity XML does not define is recorded. */
  function decodeText(raw: string): string {
    if (!raw.includes('&')) return raw;
    for (let i = raw.indexOf('&'); i !== -1; i = raw.indexOf('&', i + 1)) {
      if (!XML_ENTITY.test(raw.slice(i + 1, i + 12))) {
        warnings.add('recovered: an undefined entity or a bare "&"');
        break;
      }
    }
    return decodeHTML(raw);
  }

  for (let at = 0; at < xml.length; at += SLICE) {
    parser.write(xml.slice(at, at + SLICE));
    if (at + SLICE < xml.length) await nextTurn();
  }
  ending = true;
  parser.end();
  return { root: top.children[0], warnings: [...warnings] };
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

/** The element's text and its descendants' (for markup written inline, unescaped). */
export function textContent(node: XmlNode | undefined): string {
  if (!node) return '';
  if (node.children.length === 0) return node.text;
  let out = node.text;
  for (const c of node.children) out += textContent(c);
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
