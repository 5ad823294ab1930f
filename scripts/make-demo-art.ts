// Writes the artwork of the seeded demo catalogue (src/server/db/seed/demo-data.ts) as SVGs under
// src/web/public/images/{shop,mixes,news}/<id>.svg, so no seeded image is broken. The SVGs are
// committed; run `npx tsx scripts/make-demo-art.ts` again after changing the demo data.
import fs from 'node:fs';
import path from 'node:path';
import { demoMixes, demoNews, demoProducts } from '../src/server/db/seed/demo-data';

const out = path.resolve(import.meta.dirname, '../src/web/public/images');

const PALETTES = [
  ['#1e1048', '#7c3aed', '#22d3ee'],
  ['#0b1d3a', '#2563eb', '#67e8f9'],
  ['#2a0b3d', '#c026d3', '#a78bfa'],
  ['#071f26', '#0891b2', '#a78bfa'],
  ['#1a1033', '#6d28d9', '#f472b6'],
  ['#0d1530', '#4f46e5', '#34d399'],
] as const;

/** A small deterministic hash so each id always gets the same art. */
function hash(s: string): number {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

function rng(seed: number) {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 10_000) / 10_000;
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function defs(id: string, [bg, a, b]: readonly string[], w: number, h: number): string {
  return `<defs>
    <radialGradient id="bg-${id}" cx="0.25" cy="0.15" r="1.1"><stop offset="0" stop-color="${a}" stop-opacity="0.55"/><stop offset="0.55" stop-color="${bg}"/><stop offset="1" stop-color="#05050b"/></radialGradient>
    <linearGradient id="acc-${id}" x1="0" y1="0" x2="${w}" y2="${h}" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient>
    <filter id="blur-${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${Math.round(w / 14)}"/></filter>
  </defs>
  <rect width="${w}" height="${h}" fill="url(#bg-${id})"/>
  <circle cx="${w * 0.8}" cy="${h * 0.85}" r="${Math.min(w, h) * 0.35}" fill="${b}" opacity="0.25" filter="url(#blur-${id})"/>`;
}

/** Flowing sine lines across the picture. */
function waves(id: string, w: number, h: number, r: () => number, count = 5): string {
  let paths = '';
  for (let i = 0; i < count; i++) {
    const y = h * (0.45 + i * 0.08 + r() * 0.04);
    const amp = h * (0.04 + r() * 0.06);
    const len = w / (2 + Math.floor(r() * 3));
    let d = `M${-len} ${y.toFixed(1)}`;
    for (let x = -len; x < w + len; x += len) d += ` q${len / 2} ${(-amp).toFixed(1)} ${len} 0 t${len} 0`;
    paths += `<path d="${d}" fill="none" stroke="url(#acc-${id})" stroke-width="${(1.5 + r() * 2.5).toFixed(1)}" opacity="${(0.25 + i * 0.12).toFixed(2)}"/>`;
  }
  return paths;
}

function vinyl(id: string, cx: number, cy: number, radius: number): string {
  let grooves = '';
  for (let k = 0.92; k > 0.38; k -= 0.07)
    grooves += `<circle cx="${cx}" cy="${cy}" r="${(radius * k).toFixed(1)}" fill="none" stroke="#fff" stroke-opacity="0.07" stroke-width="1.2"/>`;
  return `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="#07070f"/>
    <circle cx="${cx}" cy="${cy}" r="${radius}" fill="none" stroke="url(#acc-${id})" stroke-width="${radius * 0.025}"/>
    ${grooves}
    <circle cx="${cx}" cy="${cy}" r="${radius * 0.3}" fill="url(#acc-${id})"/>
    <circle cx="${cx}" cy="${cy}" r="${radius * 0.035}" fill="#05050b"/>`;
}

function bars(id: string, x0: number, base: number, width: number, height: number, r: () => number): string {
  const n = 24;
  const bw = width / n;
  let s = '';
  for (let i = 0; i < n; i++) {
    const bh = height * (0.15 + 0.85 * Math.abs(Math.sin(i * 0.55 + r() * 0.8)));
    s += `<rect x="${(x0 + i * bw + bw * 0.2).toFixed(1)}" y="${(base - bh).toFixed(1)}" width="${(bw * 0.6).toFixed(1)}" height="${bh.toFixed(1)}" rx="${(bw * 0.3).toFixed(1)}" fill="url(#acc-${id})" opacity="0.85"/>`;
  }
  return s;
}

const FONT = `font-family="Inter, 'Segoe UI', 'Liberation Sans', Arial, sans-serif"`;

function shopArt(p: (typeof demoProducts)[number]): string {
  const w = 800;
  const h = 800;
  const r = rng(hash(p.id));
  const pal = PALETTES[hash(p.id) % PALETTES.length]!;
  let motif: string;
  switch (p.category) {
    case 'vinyl':
      motif = vinyl(p.id, 400, 360, 230);
      break;
    case 'digital':
      motif = bars(p.id, 160, 500, 480, 260, r);
      break;
    case 'clothing':
      motif = `<path d="M290 200 L350 170 Q400 215 450 170 L510 200 L590 270 L545 330 L505 300 L505 560 L295 560 L295 300 L255 330 L210 270 Z" fill="#0a0a16" stroke="url(#acc-${p.id})" stroke-width="6" stroke-linejoin="round"/>
        <g transform="translate(400 360) scale(1.6)"><path d="M-34 0c3.5 0 3.5-9 7-9s3.5 18 7 18 3.5-14 7-14 3.5 10 7 10 3.5-16 7-16 3.5 11 7 11" fill="none" stroke="url(#acc-${p.id})" stroke-width="3.2" stroke-linecap="round"/></g>`;
      break;
    case 'bundles':
      motif = `<rect x="210" y="210" width="300" height="300" rx="36" fill="#0a0a16" stroke="url(#acc-${p.id})" stroke-width="4" opacity="0.6" transform="rotate(-8 360 360)"/>
        <rect x="260" y="230" width="300" height="300" rx="36" fill="#0b0a18" stroke="url(#acc-${p.id})" stroke-width="5" transform="rotate(6 410 380)"/>
        ${vinyl(p.id, 410, 380, 110)}`;
      break;
    default:
      motif = `<circle cx="400" cy="360" r="200" fill="none" stroke="url(#acc-${p.id})" stroke-width="5"/>
        <circle cx="400" cy="360" r="150" fill="none" stroke="url(#acc-${p.id})" stroke-width="2" opacity="0.5"/>
        <circle cx="400" cy="360" r="100" fill="#0a0a16" stroke="url(#acc-${p.id})" stroke-width="3"/>
        <text x="400" y="378" text-anchor="middle" ${FONT} font-size="52" font-weight="800" fill="#fff" letter-spacing="6">DHR</text>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(p.name)}">
  ${defs(p.id, pal, w, h)}
  ${waves(p.id, w, h, r, 3)}
  ${motif}
  <text x="60" y="690" ${FONT} font-size="40" font-weight="700" fill="#fff">${esc(p.name)}</text>
  <text x="60" y="736" ${FONT} font-size="24" letter-spacing="6" fill="#aeaacb">DEEP HOUSE RADIO · ${esc(p.category.toUpperCase())}</text>
</svg>
`;
}

function mixArt(m: (typeof demoMixes)[number]): string {
  const w = 600;
  const h = 600;
  const r = rng(hash(m.id));
  const pal = PALETTES[hash(m.id) % PALETTES.length]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(m.title)} by ${esc(m.artist)}">
  ${defs(m.id, pal, w, h)}
  ${vinyl(m.id, 420, 230, 190)}
  ${waves(m.id, w, h, r, 5)}
  <text x="44" y="80" ${FONT} font-size="20" font-weight="700" letter-spacing="8" fill="#c4b5fd">DHR VIP</text>
  <text x="44" y="500" ${FONT} font-size="46" font-weight="800" fill="#fff">${esc(m.title)}</text>
  <text x="44" y="545" ${FONT} font-size="24" fill="#d4d2e8">${esc(m.artist)} · ${esc(m.genre)}</text>
</svg>
`;
}

function newsArt(n: (typeof demoNews)[number]): string {
  const w = 1200;
  const h = 630;
  const r = rng(hash(n.id));
  const pal = PALETTES[hash(n.id) % PALETTES.length]!;
  const motif =
    n.type === 'release'
      ? vinyl(n.id, 930, 300, 210)
      : n.type === 'event'
        ? bars(n.id, 640, 470, 480, 300, r)
        : `<circle cx="930" cy="300" r="210" fill="none" stroke="url(#acc-${n.id})" stroke-width="4"/><circle cx="930" cy="300" r="140" fill="none" stroke="url(#acc-${n.id})" stroke-width="2" opacity="0.5"/><circle cx="930" cy="300" r="18" fill="url(#acc-${n.id})"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(n.title)}">
  ${defs(n.id, pal, w, h)}
  ${waves(n.id, w, h, r, 5)}
  ${motif}
  <text x="70" y="110" ${FONT} font-size="24" font-weight="700" letter-spacing="8" fill="#67e8f9">${esc(n.source.toUpperCase())}</text>
  <text x="70" y="540" ${FONT} font-size="30" letter-spacing="4" fill="#aeaacb">${esc(n.type.toUpperCase())}</text>
</svg>
`;
}

const jobs: [string, string, string][] = [
  ...demoProducts.map((p) => ['shop', p.id, shopArt(p)] as [string, string, string]),
  ...demoMixes.map((m) => ['mixes', m.id, mixArt(m)] as [string, string, string]),
  ...demoNews.map((n) => ['news', n.id, newsArt(n)] as [string, string, string]),
];
for (const [dir, id, svg] of jobs) {
  fs.mkdirSync(path.join(out, dir), { recursive: true });
  fs.writeFileSync(path.join(out, dir, `${id}.svg`), svg);
}
console.log(`wrote ${jobs.length} SVGs under ${path.relative(process.cwd(), out)}`);
