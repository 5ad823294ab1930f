// A reference: a Fastify hello-world answering the baseline's body, in its own process like DHR.
// It shows how close a Fastify app can get to bare node:http on this machine.
import Fastify from 'fastify';

const body = JSON.stringify({ status: 'ok' });
const app = Fastify({ logger: false });
app.get('/', (_req, reply) => {
  reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
