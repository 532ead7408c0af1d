// --trace: where one operation's time goes. While it runs through the gateway, undici's and
// node:http's diagnostics channels in the gateway's own process (a server process, ./server-process/)
// say when the gateway received the operation, when it sent each REST call, when the answer's headers
// came and when its body was read, and when the gateway finished answering. Nothing in the gateway is
// changed to tell it.
import diagnostics from 'node:diagnostics_channel';

interface UndiciRequestMessage {
  request: { origin?: string | URL; method?: string; path?: string };
}

interface RestCallTrace {
  call: string;
  sentMs: number;
  answeredMs?: number;
  readMs?: number;
}

/**
 * Starts listening in this process (the gateway's); the returned function stops and tells the
 * timeline of what came meanwhile, in ms from the gateway's receipt of the operation.
 */
export function startTrace(upstreamOrigin: string): (latencyMs: number) => string[] {
  let receivedAt: number | undefined;
  let respondedAt: number | undefined;
  const calls = new Map<object, RestCallTrace>();
  const isUpstream = (message: UndiciRequestMessage) => String(message.request.origin) === upstreamOrigin;

  const onCreate = (message: unknown) => {
    const { request } = message as UndiciRequestMessage;
    if (isUpstream(message as UndiciRequestMessage)) calls.set(request, { call: `${request.method} ${request.path}`, sentMs: performance.now() });
  };
  const onHeaders = (message: unknown) => {
    const trace = calls.get((message as UndiciRequestMessage).request);
    if (trace) trace.answeredMs = performance.now();
  };
  const onTrailers = (message: unknown) => {
    const trace = calls.get((message as UndiciRequestMessage).request);
    if (trace) trace.readMs = performance.now();
  };
  // A server process serves nothing but the gateway, so its HTTP server is the only one there.
  const onServerStart = () => (receivedAt ??= performance.now());
  const onServerFinish = () => (respondedAt = performance.now());
  const subscriptions: Array<[string, (message: unknown) => void]> = [
    ['undici:request:create', onCreate],
    ['undici:request:headers', onHeaders],
    ['undici:request:trailers', onTrailers],
    ['http.server.request.start', onServerStart],
    ['http.server.response.finish', onServerFinish],
  ];
  for (const [name, listener] of subscriptions) diagnostics.subscribe(name, listener);
  return (latencyMs) => {
    for (const [name, listener] of subscriptions) diagnostics.unsubscribe(name, listener);
    if (receivedAt === undefined) return ['trace: the operation never reached the gateway'];
    return timeline(receivedAt, respondedAt, [...calls.values()], latencyMs);
  };
}

function timeline(receivedAt: number, respondedAt: number | undefined, calls: RestCallTrace[], latencyMs: number): string[] {
  const at = (ms: number | undefined) => (ms === undefined ? '     -' : (ms - receivedAt).toFixed(1).padStart(6));
  const sorted = calls.sort((a, b) => a.sentMs - b.sentMs);
  const lines = [`trace of one operation through the gateway, ms after it arrived (each REST call has ${latencyMs} ms added):`, '  sent  answered   read  call'];
  for (const call of sorted) lines.push(`${at(call.sentMs)}  ${at(call.answeredMs)}  ${at(call.readMs)}  ${call.call}`);
  const first = sorted[0];
  const lastRead = Math.max(...sorted.map((call) => call.readMs ?? call.sentMs));
  const slowest = Math.max(...sorted.map((call) => (call.answeredMs ?? call.sentMs) - call.sentMs));
  lines.push(
    `gateway answered at ${at(respondedAt).trim()} ms; before its first REST call ${first ? at(first.sentMs).trim() : '-'} ms; ` +
      `after its last REST answer ${respondedAt !== undefined && sorted.length ? (respondedAt - lastRead).toFixed(1) : '-'} ms; ` +
      `slowest REST answer ${sorted.length ? slowest.toFixed(1) : '-'} ms (${latencyMs} added).`,
  );
  return lines;
}
