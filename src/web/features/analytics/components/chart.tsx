import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { downloadText, toCsv } from '../lib/csv';

/** One chart's data: an x label per row and one value per series (the same rows feed the table and the CSV). */
export interface ChartData {
  series: readonly string[];
  rows: readonly { label: string; values: readonly number[] }[];
}

/** Series colours, readable on the dark background and apart for the common colour blindnesses (Okabe-Ito). */
const COLOURS = ['#56B4E9', '#E69F00', '#009E73', '#F0E442', '#CC79A7', '#D55E00', '#0072B2', '#999999'];
const W = 640;
const H = 220;
const PAD = { left: 44, right: 8, top: 8, bottom: 24 };

/**
 * An SVG chart (lines, bars or stacked bars) with its data table behind a toggle and its CSV. Each row
 * is a focusable column: hovering or tabbing to it shows its exact values; screen readers get the
 * summary and the table.
 */
export function Chart({
  title,
  kind,
  data,
  format = (v) => String(v),
  file,
}: {
  title: string;
  kind: 'line' | 'bar' | 'stacked';
  data: ChartData;
  format?: (value: number) => string;
  file: string;
}) {
  const [table, setTable] = useState(false);
  const [active, setActive] = useState<number | null>(null);
  const id = useId();
  const { series, rows } = data;
  const totals = rows.map((r) => (kind === 'stacked' ? r.values.reduce((a, b) => a + b, 0) : Math.max(0, ...r.values)));
  const max = Math.max(1, ...totals);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = rows.length ? innerW / rows.length : innerW;
  const x = (i: number) => PAD.left + step * i + step / 2;
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const shown = active !== null ? rows[active] : undefined;
  const csv = () =>
    downloadText(
      file,
      toCsv(
        ['label', ...series],
        rows.map((r) => [r.label, ...r.values]),
      ),
    );
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 rounded-xl border border-white/10 bg-white/[0.03] p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="ghost" aria-expanded={table} aria-controls={`${id}-table`} onClick={() => setTable((t) => !t)}>
            {table ? 'Hide data table' : 'Show data table'}
          </Button>
          <Button size="sm" variant="secondary" onClick={csv}>
            Download CSV
          </Button>
        </div>
      </div>
      {series.length > 1 && (
        <ul className="mt-2 flex flex-wrap gap-3 text-xs" aria-label="Legend">
          {series.map((s, i) => (
            <li key={s} className="flex items-center gap-1">
              <span aria-hidden="true" className="inline-block h-2 w-3 rounded-sm" style={{ background: COLOURS[i % COLOURS.length] }} />
              {s}
            </li>
          ))}
        </ul>
      )}
      {rows.length === 0 ? (
        <p className="mt-4 text-sm text-mist-300">No data for this range yet.</p>
      ) : (
        <div className="relative mt-2">
          <svg
            viewBox={`0 0 ${W} ${H}`}
            className="h-auto w-full"
            role="img"
            aria-label={`${title}: ${rows.length} points, highest ${format(max)}. The data table lists every value.`}
          >
            <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity="0.3" />
            <text x={PAD.left - 4} y={y(max) + 4} textAnchor="end" fontSize="11" fill="currentColor" opacity="0.7">
              {format(max)}
            </text>
            <text x={PAD.left - 4} y={y(0)} textAnchor="end" fontSize="11" fill="currentColor" opacity="0.7">
              0
            </text>
            <text x={PAD.left} y={H - 6} fontSize="11" fill="currentColor" opacity="0.7">
              {rows[0]?.label}
            </text>
            <text x={W - PAD.right} y={H - 6} textAnchor="end" fontSize="11" fill="currentColor" opacity="0.7">
              {rows.at(-1)?.label}
            </text>
            <Marks kind={kind} data={data} x={x} y={y} step={step} />
            {rows.map((r, i) => (
              <rect
                key={r.label}
                x={PAD.left + step * i}
                y={PAD.top}
                width={step}
                height={innerH}
                fill={active === i ? 'currentColor' : 'transparent'}
                fillOpacity={active === i ? 0.08 : 0}
                tabIndex={rows.length <= 120 || i % Math.ceil(rows.length / 120) === 0 ? 0 : -1}
                aria-label={`${r.label}: ${series.map((s, j) => `${s} ${format(r.values[j] ?? 0)}`).join(', ')}`}
                onMouseEnter={() => setActive(i)}
                onMouseLeave={() => setActive(null)}
                onFocus={() => setActive(i)}
                onBlur={() => setActive(null)}
                className="outline-none focus:stroke-white"
              />
            ))}
          </svg>
          <p aria-live="polite" className="min-h-5 text-xs text-mist-200">
            {shown ? `${shown.label}: ${series.map((s, j) => `${s} ${format(shown.values[j] ?? 0)}`).join(' · ')}` : ''}
          </p>
        </div>
      )}
      {table && <DataTable id={`${id}-table`} title={title} data={data} format={format} />}
    </section>
  );
}

function Marks({
  kind,
  data,
  x,
  y,
  step,
}: {
  kind: 'line' | 'bar' | 'stacked';
  data: ChartData;
  x: (i: number) => number;
  y: (v: number) => number;
  step: number;
}) {
  const { series, rows } = data;
  if (kind === 'line')
    return (
      <g aria-hidden="true">
        {series.map((s, j) => (
          <polyline
            key={s}
            fill="none"
            stroke={COLOURS[j % COLOURS.length]}
            strokeWidth="1.5"
            points={rows.map((r, i) => `${x(i).toFixed(1)},${y(r.values[j] ?? 0).toFixed(1)}`).join(' ')}
          />
        ))}
      </g>
    );
  const barW = Math.max(1, step * 0.8);
  return (
    <g aria-hidden="true">
      {rows.map((r, i) => {
        let base = 0;
        return series.map((s, j) => {
          const v = r.values[j] ?? 0;
          const w = kind === 'stacked' ? barW : barW / series.length;
          const left = x(i) - barW / 2 + (kind === 'stacked' ? 0 : w * j);
          const from = kind === 'stacked' ? base : 0;
          if (kind === 'stacked') base += v;
          return (
            <rect key={`${r.label}-${s}`} x={left} width={w} y={y(from + v)} height={Math.max(0, y(from) - y(from + v))} fill={COLOURS[j % COLOURS.length]} />
          );
        });
      })}
    </g>
  );
}

function DataTable({ id, title, data, format }: { id: string; title: string; data: ChartData; format: (value: number) => string }) {
  return (
    <div id={id} className="mt-3 max-h-80 overflow-auto">
      <table className="w-full text-left text-xs">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr>
            <th scope="col" className="py-1 pr-2">
              When
            </th>
            {data.series.map((s) => (
              <th key={s} scope="col" className="py-1 pr-2 text-right">
                {s}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => (
            <tr key={r.label} className="border-t border-white/5">
              <th scope="row" className="py-1 pr-2 font-normal">
                {r.label}
              </th>
              {r.values.map((v, j) => (
                <td key={data.series[j]} className="py-1 pr-2 text-right tabular-nums">
                  {format(v)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
