import { PAGE_START_READS, POP_OUT_PATHS, pagePathPattern } from '../../contracts/routes';
import { escapeHtml } from '../lib/html';

declare module 'fastify' {
  interface FastifyInstance {
    /** What each page's HTML asks the browser to fetch at once, beyond the entry script (web.ts sends it). */
    pageHints: PageHints;
  }
}

const POP_OUT = POP_OUT_PATHS.map(pagePathPattern);

interface RouteHint {
  pattern: RegExp;
  links: string;
  leadImages: (() => string | undefined)[];
}

/**
 * The `<link rel="preload">` lines of each page's HTML (docs/decisions/0022-first-load-of-gated-and-data-pages.md):
 * - the API reads the page makes as it starts (PAGE_START_READS), so their answers are in when its
 *   code has loaded: one round trip less before the page shows its data;
 * - the image the page shows first and largest (its largest contentful paint), named by the module
 *   that holds the page's data, so it downloads beside the scripts instead of after the data.
 */
export class PageHints {
  private readonly everyPage: string;
  private readonly routes: RouteHint[];

  constructor(startReads: Readonly<Record<string, readonly string[]>> = PAGE_START_READS) {
    // `crossorigin` gives the same-origin credentials `fetch` uses, so the app's request takes the preloaded answer.
    const readLinks = (reads: readonly string[]) => reads.map((url) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(url)}">`).join('');
    this.everyPage = readLinks(startReads['*'] ?? []);
    this.routes = Object.entries(startReads)
      .filter(([route]) => route !== '*')
      .map(([route, reads]) => ({ pattern: pagePathPattern(route), links: readLinks(reads), leadImages: [] }));
  }

  /**
   * `pick` names the first, largest image of the page at `route` from what its module holds in memory
   * (undefined when it holds nothing yet: the page then loads it as it renders, as without a hint).
   */
  leadImage(route: string, pick: () => string | undefined): void {
    let hint = this.routes.find((r) => r.pattern.source === pagePathPattern(route).source);
    if (!hint) {
      hint = { pattern: pagePathPattern(route), links: '', leadImages: [] };
      this.routes.push(hint);
    }
    hint.leadImages.push(pick);
  }

  /** The lines for a page the app shows at `pathname` (not for a 404). */
  linksFor(pathname: string): string {
    const everyPage = POP_OUT.some((p) => p.test(pathname)) ? '' : this.everyPage;
    const hint = this.routes.find((r) => r.pattern.test(pathname));
    if (!hint) return everyPage;
    let images = '';
    for (const pick of hint.leadImages) {
      const url = pick();
      // Only the site's own images: a product may name an image on another host.
      if (url?.startsWith('/')) images += `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(url)}">`;
    }
    return everyPage + hint.links + images;
  }
}
