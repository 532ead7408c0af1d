import { pino, type DestinationStream, type Logger } from 'pino';
import { redact, redactDeep } from '../errors/redact.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Fields of a structured log line. */
export type LogFields = Record<string, unknown>;

/**
 * Where the gateway writes its log lines; a pino logger fits as it is. Only `error` is required,
 * so that a bare `{ error(message) }` (what earlier versions asked for) still works: the lines of
 * the levels it lacks are dropped.
 */
export interface GatewayLogger {
  /** The gateway's own faults: a token-free message. */
  error(message: string): void;
  /** Upstream errors (5xx, timeouts, refused connections). */
  warn?(fields: LogFields, message: string): void;
  /** One line per request and per WebSocket operation. */
  info?(fields: LogFields, message: string): void;
  /** Probes (/healthz, /readyz, /metrics): frequent and uninteresting. */
  debug?(fields: LogFields, message: string): void;
  /** pino's: lets the gateway skip building lines nobody will read. */
  isLevelEnabled?(level: string): boolean;
}

/**
 * Keys that carry credentials, at the top of a logged object or one or two levels down (`headers`,
 * `req.headers`, `connectionParams`): header names as Node gives them and as WebSocket clients send them.
 */
const SECRET_KEYS = [
  'authorization',
  'Authorization',
  '"private-token"',
  '"PRIVATE-TOKEN"',
  '"job-token"',
  '"JOB-TOKEN"',
  'token',
  'serviceToken',
];
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const member = key.startsWith('"') ? `[${key}]` : `.${key}`;
  return [`*${member}`, `*.*${member}`, ...(key.startsWith('"') ? [] : [key])];
});

/** Token-looking text is scrubbed from every message and field, on top of the key-based redaction. */
function scrubFields(object: Record<string, unknown>): Record<string, unknown> {
  const scrubbed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) scrubbed[key] = value instanceof Error ? value : redactDeep(value);
  return scrubbed;
}

function scrubError(error: unknown): unknown {
  if (!(error instanceof Error)) return redactDeep(error);
  const serialized = pino.stdSerializers.err(error);
  return { ...serialized, message: redact(serialized.message), stack: redact(serialized.stack) };
}

let stdoutLines: DestinationStream | undefined;

/**
 * stdout as the loggers' default destination, through Node's own stream instead of pino's default
 * (sonic-boom on fd 1). When whatever reads stdout goes away, sonic-boom's exit-time flushSync
 * (4.2.1) retries the failed write forever, EPIPE included: `process.exit` never returned, and the
 * process, deaf to a second signal, held on after closing its port. Node's
 * stream reports the EPIPE as an 'error' event instead, and the lines from then on are dropped:
 * nobody is left to read them. Node writes a pipe asynchronously, so a slow reader does not block
 * requests either. One for the process: every logger shares its single 'error' listener.
 */
function stdoutDestination(): DestinationStream {
  if (stdoutLines) return stdoutLines;
  let broken = false;
  process.stdout.on('error', () => {
    broken = true;
  });
  stdoutLines = {
    write(line: string) {
      if (!broken && !process.stdout.destroyed) process.stdout.write(line);
    },
  };
  return stdoutLines;
}

/**
 * The gateway's default logger: pino, one JSON object per line on stdout (or `destination`), with
 * credentials redacted by header name and GitLab token prefixes scrubbed from every string.
 */
export function createLogger(options: { level?: LogLevel; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'gitlab-graphql-gateway' },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: { err: scrubError, error: scrubError },
      formatters: { log: scrubFields },
      hooks: {
        logMethod(args, method) {
          // Messages pass through redact() too: a message may quote an upstream answer.
          const scrubbed = args.map((arg: unknown) => (typeof arg === 'string' ? redact(arg) : arg));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? stdoutDestination(),
  );
}
