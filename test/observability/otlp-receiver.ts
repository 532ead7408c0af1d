import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** One POST an OTLP/HTTP exporter made. */
export interface ExportRequest {
  path: string;
  contentType: string | undefined;
  body: Buffer;
}

/** A span as OTLP/JSON carries it (ids in hex, attributes as typed values). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
  links?: Array<{ traceId: string; spanId: string }>;
  status?: { code?: number };
}

export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

/**
 * An OTLP/HTTP receiver, as a Collector or Jaeger listens on :4318: a node:http server on
 * 127.0.0.1, port 0, that answers every export 200 and keeps what it was sent.
 */
export async function startOtlpReceiver() {
  const received: ExportRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' });
      res.end(req.headers['content-type']?.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Every span of every JSON export received, in order. */
    spans(): OtlpSpan[] {
      return received.flatMap((request) => {
        const decoded = JSON.parse(request.body.toString('utf8')) as {
          resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
        };
        return (decoded.resourceSpans ?? []).flatMap((resource) => (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []));
      });
    },
    /** The `service.name` of each JSON export's resources. */
    serviceNames(): string[] {
      return received.flatMap((request) => {
        const decoded = JSON.parse(request.body.toString('utf8')) as {
          resourceSpans?: Array<{ resource?: { attributes?: OtlpSpan['attributes'] } }>;
        };
        return (decoded.resourceSpans ?? []).map((resource) =>
          String(resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value['stringValue']),
        );
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A span attribute's value, whatever its OTLP type (intValue comes as a number or a string). */
export function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  if (!value) return undefined;
  if ('intValue' in value) return Number(value['intValue']);
  return Object.values(value)[0];
}

/**
 * The headers of every request a node:http server of this process listening on `port` receives
 * (Node's `http.server.request.start` channel): what the embedded v4 server was sent, as sent.
 */
export function recordHeadersReceivedOn(port: () => number) {
  const headers: Array<IncomingMessage['headers']> = [];
  const listener = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    if (request.socket.localPort === port()) headers.push(request.headers);
  };
  subscribe('http.server.request.start', listener);
  return { headers, stop: () => unsubscribe('http.server.request.start', listener) };
}
