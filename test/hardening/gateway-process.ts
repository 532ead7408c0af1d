// The gateway alone in a child process, so that a test can measure its heap and nothing else's:
// forked by soak.test.ts with --expose-gc and the upstream's URL as its argument. It sends
// `{ url }` once it listens on 127.0.0.1, answers each `'heap'` message with `{ heapUsed }` after
// two full collections, and stops when the parent disconnects or sends `'close'`.
import { createGateway, type GatewayLogger } from '../../src/index.js';

const upstreamUrl = process.argv[2];
const collect = (globalThis as { gc?: () => void }).gc;
if (!upstreamUrl || !process.send || !collect) {
  console.error('usage: fork with --expose-gc and an IPC channel, the upstream URL as the argument');
  process.exit(2);
}

// As compiled JavaScript runs in production: without tsx's source maps, which make every error's
// stack trace (graphql-js reads one per GraphQLError) cost more than the rest of a failed request.
process.setSourceMapsEnabled(false);

// Not a line per request: writing 11,000 of them is not what is measured.
const logger: GatewayLogger = { error: (message) => console.error(message) };
const gateway = createGateway({ upstreamUrl, landingPage: false, logger });
const listening = await gateway.listen({ port: 0, host: '127.0.0.1' });

const stop = () => void gateway.close().finally(() => process.exit(0));
process.on('disconnect', stop);
process.on('message', (message) => {
  if (message === 'heap') {
    collect();
    collect();
    process.send?.({ heapUsed: process.memoryUsage().heapUsed });
  } else if (message === 'close') stop();
});
process.send({ url: listening.url });
