// Renders the PNG icons and the Open Graph image from the SVG artwork with Debian's Chromium.
// Run after changing the artwork: `npx tsx scripts/render-brand-images.ts` (the PNGs are committed).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const pub = path.join(root, 'src/web/public');
const svg = (name: string) => fs.readFileSync(path.join(pub, 'icons', name), 'utf8');

const page = (size: { w: number; h: number }, body: string) => `<!doctype html><html><head><style>
  html,body{margin:0;width:${size.w}px;height:${size.h}px;overflow:hidden;background:transparent}
  svg{display:block;width:100%;height:100%}
</style></head><body>${body}</body></html>`;

const ogHtml = `<!doctype html><html><head><style>
  html,body{margin:0;width:1200px;height:630px;overflow:hidden}
  body{background:#05050b;font-family:"Liberation Sans","DejaVu Sans",Arial,sans-serif;color:#ecebf7;position:relative}
  .glow1{position:absolute;width:900px;height:600px;left:420px;top:-260px;border-radius:50%;background:radial-gradient(closest-side,rgba(124,58,237,.55),transparent)}
  .glow2{position:absolute;width:700px;height:500px;left:-220px;top:260px;border-radius:50%;background:radial-gradient(closest-side,rgba(6,182,212,.28),transparent)}
  .mark{position:absolute;right:90px;top:115px;width:400px;height:400px;filter:drop-shadow(0 0 60px rgba(124,58,237,.55))}
  .text{position:absolute;left:90px;top:150px;width:640px}
  .pill{display:inline-block;padding:10px 20px;border-radius:999px;border:1px solid rgba(255,255,255,.15);background:rgba(255,255,255,.06);font-size:20px;letter-spacing:4px;font-weight:700;text-transform:uppercase}
  .dot{display:inline-block;width:12px;height:12px;border-radius:50%;background:#f43f5e;margin-right:12px;vertical-align:1px}
  h1{margin:34px 0 0;font-size:86px;line-height:1;font-weight:800;letter-spacing:-2px}
  h1 span{background:linear-gradient(100deg,#e9e5ff,#a78bfa 45%,#22d3ee);-webkit-background-clip:text;color:transparent}
  p{margin:28px 0 0;font-size:30px;color:#aeaacb;line-height:1.35}
  .tiers{position:absolute;left:90px;bottom:70px;font-size:22px;color:#8b87ab;letter-spacing:1px}
  .tiers b{color:#ecebf7}
</style></head><body>
  <div class="glow1"></div><div class="glow2"></div>
  <div class="mark">${svg('icon.svg')}</div>
  <div class="text">
    <div class="pill"><span class="dot"></span>Live · 24/7</div>
    <h1>Deep House<br><span>Radio</span></h1>
    <p>Hand-picked deep house, around the clock.</p>
  </div>
  <div class="tiers">Free stream · <b>DHR1 €3</b> · <b>DHR2 €5</b> · <b>VIP €10</b> a month</div>
</body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const shots: { file: string; w: number; h: number; html: string; transparent?: boolean }[] = [
    { file: 'icons/icon-192.png', w: 192, h: 192, html: page({ w: 192, h: 192 }, svg('icon-maskable.svg')) },
    { file: 'icons/icon-512.png', w: 512, h: 512, html: page({ w: 512, h: 512 }, svg('icon-maskable.svg')) },
    { file: 'icons/apple-touch-icon.png', w: 180, h: 180, html: page({ w: 180, h: 180 }, svg('icon-maskable.svg')) },
    { file: 'icons/favicon-32.png', w: 32, h: 32, html: page({ w: 32, h: 32 }, svg('icon.svg')), transparent: true },
    { file: 'og-image.png', w: 1200, h: 630, html: ogHtml },
  ];
  for (const s of shots) {
    const p = await browser.newPage({ viewport: { width: s.w, height: s.h } });
    await p.setContent(s.html);
    await p.screenshot({ path: path.join(pub, s.file), omitBackground: s.transparent ?? false });
    await p.close();
    console.log('wrote', s.file);
  }
} finally {
  await browser.close();
}
