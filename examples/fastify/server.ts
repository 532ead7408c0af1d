/**
 * A BFF on Fastify 5 that embeds the gateway: its own REST route (GET /api/hello), the gateway's
 * graph with a field of its own on /graphql (through @as-integrations/fastify), subscriptions
 * over graphql-ws on the same server, and the gateway's artifact downloads under /artifacts/.
 *
 *   V4_URL=http://127.0.0.1:4010/api/v4 npx tsx examples/fastify/server.ts
 */
import fastifyApollo from '@as-integrations/fastify';
import Fastify from 'fastify';
import { createGateway, type GatewayContext } from 'gitlab-graphql-gateway';
import { bffExtension, GRAPHQL_PATH, hello, runningBff, runWhenMain, type BffOptions, type RunningBff } from '../shared/bff.js';

export async function start({ upstreamUrl, port = 0, host = '127.0.0.1', gateway: gatewayOptions }: BffOptions): Promise<RunningBff> {
  const gateway = createGateway({ ...gatewayOptions, upstreamUrl, extend: bffExtension('Fastify') });
  await gateway.start();

  const app = Fastify();
  app.get('/api/hello', () => hello('Fastify'));
  await app.register(fastifyApollo<GatewayContext>(gateway.apollo), {
    path: GRAPHQL_PATH,
    // The caller's credential and request id, read as the gateway itself reads them.
    context: (request, reply) => {
      const context = gateway.contextFromRequest(request.raw);
      void reply.header('x-request-id', context.requestId);
      return Promise.resolve(context);
    },
  });
  // The gateway's routes besides GraphQL: job artifact downloads stream through Node's response.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/artifacts/*',
    handler: async (request, reply) => {
      reply.hijack();
      await gateway.httpHandler(request.raw, reply.raw);
    },
  });

  gateway.attachWebSocket(app.server, { path: GRAPHQL_PATH });
  await app.listen({ port, host });
  return runningBff(app.server, gateway, async () => {
    // First the gateway (its WebSockets, Apollo, pollers), then Fastify and its connections.
    await gateway.close();
    await app.close();
  });
}

runWhenMain(import.meta.url, 'Fastify', start);
