import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { access, hookList } from './access';
import { mediaReply } from './reply-schemas';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
    /** The recorder of one route's requests into the HTTP duration histogram. */
    requestRecorder: (route: string) => RequestRecorder;
  }
}

/** Records one answered request of a route: its method, status and duration. */
export type RequestRecorder = (method: string, status: number, seconds: number) => void;

const DURATION_METRIC = 'dhr_http_request_duration_seconds';
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One method/route/status series: its label text, the count per bucket (the last is +Inf), the sum. */
interface DurationSeries {
  labels: string;
  buckets: number[];
  sum: number;
  count: number;
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * The HTTP duration histogram, kept by hand rather than by prom-client: observing is a bucket search
 * and three additions on a series the route already holds, where prom-client's labelled child
 * validates and hashes its labels on every call (docs/decisions/0020-hot-path-and-first-paint.md).
 * The exposition is the same Prometheus histogram as before.
 */
export class RequestDurations {
  private readonly series: DurationSeries[] = [];

  /** The series for one method, route and status; created on first use, then kept by the caller. */
  create(method: string, route: string, status: number): DurationSeries {
    const series = {
      labels: `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`,
      buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0),
      sum: 0,
      count: 0,
    };
    this.series.push(series);
    return series;
  }

  observe(series: DurationSeries, seconds: number): void {
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[i] as number)) i++;
    series.buckets[i] = (series.buckets[i] ?? 0) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** Prometheus text exposition (cumulative buckets, `le` first as prom-client writes it). */
  text(): string {
    const lines = [`# HELP ${DURATION_METRIC} HTTP request duration by method, route and status`, `# TYPE ${DURATION_METRIC} histogram`];
    for (const s of this.series) {
      let cumulative = 0;
      s.buckets.forEach((n, i) => {
        cumulative += n;
        const le = i < DURATION_BUCKETS.length ? String(DURATION_BUCKETS[i]) : '+Inf';
        lines.push(`${DURATION_METRIC}_bucket{le="${le}",${s.labels}} ${cumulative}`);
      });
      lines.push(`${DURATION_METRIC}_sum{${s.labels}} ${s.sum}`, `${DURATION_METRIC}_count{${s.labels}} ${s.count}`);
    }
    return lines.join('\n') + '\n';
  }
}

/** Prometheus text at /metrics: process metrics, the modules' metrics and an HTTP duration histogram by route. */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'dhr_' });
    app.decorate('metrics', registry);
    const durations = new RequestDurations();

    /** Records a finished request into the series of `route` (one per method and status, found by status). */
    const recorders = new Map<string, RequestRecorder>();
    /** One recorder per route URL, shared by its methods and by the memory path (one series per label set). */
    const recorder = (route: string): RequestRecorder => {
      const known = recorders.get(route);
      if (known) return known;
      const byMethod = new Map<string, Map<number, DurationSeries>>();
      const record: RequestRecorder = (method, status, seconds) => {
        let byStatus = byMethod.get(method);
        if (!byStatus) byMethod.set(method, (byStatus = new Map()));
        let series = byStatus.get(status);
        if (!series) byStatus.set(status, (series = durations.create(method, route, status)));
        durations.observe(series, seconds);
      };
      recorders.set(route, record);
      return record;
    };
    // Requests answered before Fastify (plugins/memory-answers.ts) record into the same series.
    app.decorate('requestRecorder', recorder);
    // Each route records with its own hook, closing over its URL (reading `req.routeOptions` builds an
    // object per request); requests that match no route are counted by the app-wide hook as 'unmatched'.
    app.addHook('onRoute', (route) => {
      const record = recorder(route.url);
      const hook: onResponseHookHandler = (req, reply, done) => {
        record(req.method, reply.statusCode, reply.elapsedTime / 1000);
        done();
      };
      route.onResponse = [...hookList(route.onResponse), hook];
    });
    const recordUnmatched = recorder('unmatched');
    app.addHook('onResponse', (req, reply, done) => {
      if (req.is404) recordUnmatched(req.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    // Metrics name routes, counts and internals: a scraper presents METRICS_TOKEN, a person signs in as admin.
    app.get(
      '/metrics',
      {
        config: { access: access.adminOrBearer('METRICS_TOKEN') },
        schema: { summary: 'Prometheus metrics', response: { 200: mediaReply('text/plain', 'Prometheus text exposition format.') } },
      },
      async (_req, reply) => {
        reply.type(registry.contentType);
        return (await registry.metrics()) + '\n' + durations.text();
      },
    );
  },
  { name: 'metrics' },
);
