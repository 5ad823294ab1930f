import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { isPagePath } from '../../contracts/routes';
import { escapeHtml } from '../lib/html';
import { access } from './access';
import { sendError } from './errors';
import { DAY_MS } from '../../contracts/time';
import { mediaReply } from './reply-schemas';

export interface WebOptions {
  /** The Vite build output; when missing, pages answer with a hint to build. */
  webRoot: string;
  /** Each page's own head (title, description, link preview, canonical, feeds, JSON-LD): modules/seo/page-heads.ts. */
  heads: { headFor(pathname: string, found: boolean): Promise<string> | string };
}

/** The part of index.html's head that is the same for every page stays; the part between these markers is each page's own. */
const HEAD_START = '<!-- page-head';
const HEAD_END = '<!-- /page-head -->';

/** index.html around its per-page part; without the markers, each page's head goes before `</head>`. */
function splitTemplate(html: string): { before: string; after: string } {
  const start = html.indexOf(HEAD_START);
  const end = html.indexOf(HEAD_END, start);
  if (start !== -1 && end !== -1) return { before: html.slice(0, start), after: html.slice(end + HEAD_END.length) };
  const close = html.indexOf('</head>');
  return close === -1 ? { before: '', after: html } : { before: html.slice(0, close), after: html.slice(close) };
}

/** Whether `file` is a regular file; names the file system refuses (too long, ...) are no file. */
function isFile(file: string): boolean {
  try {
    return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * Serves the web build: hashed assets with long caching, and the app's HTML for every page path
 * (history fallback). `/api/*` never gets HTML: unknown API paths are a JSON 404.
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: WebOptions) => {
  const indexPath = path.join(opts.webRoot, 'index.html');
  const hasBuild = fs.existsSync(indexPath);
  const publicUrl = app.config.PUBLIC_URL;
  // Placeholders in index.html are filled once, so link previews (which run no scripts) see real URLs.
  const html = hasBuild
    ? fs.readFileSync(indexPath, 'utf8').replaceAll('%PUBLIC_URL%', escapeHtml(publicUrl))
    : `<!doctype html><html><head>${HEAD_START} -->${HEAD_END}</head><body><p>The web app is not built yet: run <code>npm run build</code>.</p></body></html>`;
  const template = splitTemplate(html);

  if (hasBuild) {
    // The build writes .br and .gz beside each asset (vite.config.ts); they are sent as they are.
    await app.register(fastifyStatic, { root: opts.webRoot, serve: false, preCompressed: true });
  }

  async function sendPage(reply: FastifyReply, status: number, pathname: string) {
    // The page's own head, computed once per URL and kept (modules/seo/page-heads.ts): every value in it is escaped there.
    const head = await opts.heads.headFor(pathname, status === 200);
    // A page the app shows (not a 404): its first API reads and its lead image start with the HTML, not after the scripts.
    const links = status === 200 && hasBuild ? app.pageHints.linksFor(pathname) : '';
    const page = template.before + head + links + template.after;
    // public: the shell is the same for everyone, so it is not treated as member data; no-cache: revalidated on each visit.
    return reply.status(status).header('cache-control', 'public, no-cache').type('text/html; charset=utf-8').send(page);
  }

  /** The request's decoded path, or undefined when it is not a usable path (bad escapes, NUL, control characters). */
  function decodedPath(url: string): string | undefined {
    let pathname: string;
    try {
      pathname = decodeURIComponent((url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/'));
    } catch {
      return undefined;
    }
    // NUL and other control characters name no page or file (and make fs calls throw).
    return hasControlCharacter(pathname) ? undefined : pathname;
  }

  app.setNotFoundHandler((req, reply) => {
    const pathname = decodedPath(req.url) ?? '/';
    if (pathname.startsWith('/api/') || pathname === '/api') {
      // Unmatched URLs run no route's no-store hook (plugins/access.ts): the API's 404 says it here.
      reply.header('cache-control', 'no-store');
      return sendError(reply, 404, 'not_found', `No API route ${req.method} ${pathname}`);
    }
    return sendPage(reply, 404, pathname);
  });

  // Pages and files are the same for every visitor (the app reads the member from the API).
  app.get(
    '/*',
    {
      config: { access: access.public, sharedAnswer: true },
      schema: {
        response: {
          200: mediaReply('*/*', 'A page of the web app, or one of its files.'),
          404: mediaReply('text/html', "The app's not-found page (an unknown /api path answers the error envelope)."),
        },
      },
    },
    async (req, reply) => {
      const pathname = decodedPath(req.url);
      if (pathname === undefined) return sendPage(reply, 404, '/');
      if (pathname.startsWith('/api/') || pathname === '/api') {
        reply.header('cache-control', 'no-store');
        return sendError(reply, 404, 'not_found', `No API route ${req.method} ${pathname}`);
      }
      if (isPagePath(pathname)) return sendPage(reply, 200, pathname);
      if (hasBuild && !pathname.includes('..')) {
        const file = path.join(opts.webRoot, pathname);
        if (file.startsWith(opts.webRoot + path.sep) && isFile(file)) {
          const immutable = pathname.startsWith('/assets/');
          if (pathname === '/sw.js') reply.header('service-worker-allowed', '/');
          return reply.sendFile(pathname.slice(1), {
            maxAge: immutable ? 365 * DAY_MS : 0,
            immutable,
            cacheControl: true,
          });
        }
      }
      return sendPage(reply, 404, pathname);
    },
  );
});
