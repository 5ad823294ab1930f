import { escapeHtml } from '../lib/html';

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-dhr-access'?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses?: Record<string, { description?: string }>;
}

export interface ApiDocument {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const STYLE = `
body{margin:0;background:#0b0b12;color:#e7e7f0;font:15px/1.5 system-ui,sans-serif}
main{max-width:980px;margin:0 auto;padding:24px 16px 64px}
h1{font-size:1.6rem;margin:0 0 4px}h2{margin:32px 0 8px;font-size:1.15rem;color:#22d3ee;text-transform:capitalize}
a{color:#a5b4fc}p.lead{color:#b4b4c8;margin:0 0 16px}
details{border:1px solid #262637;border-radius:10px;margin:6px 0;background:#12121c}
summary{cursor:pointer;padding:10px 12px;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
code{font:13px/1.4 ui-monospace,monospace;word-break:break-all}
.m{font-weight:700;font-size:12px;padding:2px 8px;border-radius:6px;background:#262637;min-width:56px;text-align:center}
.GET{color:#4ade80}.POST{color:#22d3ee}.PUT,.PATCH{color:#facc15}.DELETE{color:#f87171}
.who{margin-left:auto;font-size:12px;color:#b4b4c8}
.body{padding:0 12px 12px;color:#cfcfe0}ul{margin:4px 0 8px;padding-left:20px}
`;

function list(items: string[]): string {
  return items.length ? `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>` : '<p>None.</p>';
}

function operationHtml(path: string, method: string, op: Operation): string {
  const verb = method.toUpperCase();
  const params = (op.parameters ?? []).map((p) => `<code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)}${p.required ? ', required' : ''})`);
  const body = Object.values(op.requestBody?.content ?? {})[0]?.schema;
  const fields = Object.keys(body?.properties ?? {}).map((f) => `<code>${escapeHtml(f)}</code>${body?.required?.includes(f) ? ' (required)' : ''}`);
  const replies = Object.entries(op.responses ?? {}).map(([code, r]) => `<code>${escapeHtml(code)}</code> ${escapeHtml(r.description ?? '')}`);
  return `<details><summary><span class="m ${verb}">${verb}</span><code>${escapeHtml(path)}</code><span class="who">${escapeHtml(op['x-dhr-access'] ?? 'public')}</span></summary>
<div class="body">${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}
<strong>Parameters</strong>${list(params)}${body ? `<strong>Body fields</strong>${list(fields)}` : ''}<strong>Replies</strong>${list(replies)}</div></details>`;
}

/** The API reference as one HTML page, grouped by the first segment after /api. */
export function renderApiReference(doc: ApiDocument): string {
  const groups = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'other';
      groups.set(tag, [...(groups.get(tag) ?? []), operationHtml(path, method, op)]);
    }
  }
  const sections = [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, ops]) => `<h2 id="${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${ops.join('\n')}`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(doc.info.title)}</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(doc.info.title)}</h1><p class="lead">${escapeHtml(doc.info.description ?? '')} The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
${sections.join('\n')}</main></body></html>`;
}
