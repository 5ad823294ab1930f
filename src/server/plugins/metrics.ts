import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { access } from './access';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

/** Prometheus text at /metrics: process metrics and an HTTP duration histogram by route. */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'dhr_' });
  const duration = new Histogram({
    name: 'dhr_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.decorate('metrics', registry);

  // One labelled child per method/route/status, so the hot path skips label hashing.
  const children = new Map<string, ReturnType<typeof duration.labels>>();
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const key = `${req.method} ${route} ${reply.statusCode}`;
    let child = children.get(key);
    if (!child) {
      child = duration.labels(req.method, route, String(reply.statusCode));
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });

  // Metrics name routes, counts and internals: a scraper presents METRICS_TOKEN, a person signs in as admin.
  app.get('/metrics', { config: { access: access.adminOrBearer('METRICS_TOKEN') } }, async (_req, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
});
