/**
 * A BFF on Express 5 that embeds the gateway: its own REST route (GET /api/hello), the gateway's
 * graph with a field of its own on /graphql (through @as-integrations/express5), subscriptions
 * over graphql-ws on the same server, and the gateway's artifact downloads under /artifacts/.
 *
 *   V4_URL=http://127.0.0.1:4010/api/v4 npx tsx examples/express/server.ts
 */
import { createServer } from 'node:http';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { createGateway } from 'gitlab-graphql-gateway';
import { bffExtension, GRAPHQL_PATH, hello, runningBff, runWhenMain, type BffOptions, type RunningBff } from '../shared/bff.js';

export async function start({ upstreamUrl, port = 0, host = '127.0.0.1', gateway: gatewayOptions }: BffOptions): Promise<RunningBff> {
  const gateway = createGateway({ ...gatewayOptions, upstreamUrl, extend: bffExtension('Express') });
  await gateway.start();

  const app = express();
  app.get('/api/hello', (_req, res) => {
    res.json(hello('Express'));
  });
  app.use(
    GRAPHQL_PATH,
    express.json(),
    expressMiddleware(gateway.apollo, {
      // The caller's credential and request id, read as the gateway itself reads them.
      context: ({ req, res }) => {
        const context = gateway.contextFromRequest(req);
        res.setHeader('x-request-id', context.requestId);
        return Promise.resolve(context);
      },
    }),
  );
  // The gateway's routes besides GraphQL (job artifact downloads); anything else falls through.
  app.use(gateway.httpHandler);

  const server = createServer(app);
  gateway.attachWebSocket(server, { path: GRAPHQL_PATH });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return runningBff(server, gateway, async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // First the gateway (its WebSockets, Apollo, pollers), then any idle keep-alive connection.
    await gateway.close();
    server.closeAllConnections();
    await closed;
  });
}

runWhenMain(import.meta.url, 'Express', start);
