// The library's face, for embedding in a BFF: createGateway and the types around it.
export { createGateway } from './server/gateway.js';
export { SERVER_V8_FLAGS, tuneServerProcess } from './server/process-tuning.js';
export type { Gateway, GatewayOptions, ListeningGateway, WebSocketAttachment } from './server/options.js';
export type { GatewayContext } from './server/context.js';
export type { Credential, CredentialReader, CredentialRequest } from './datasources/credentials.js';
export type { SchemaExtension } from './schema/executable.js';
export { loadConfig, ConfigError, type GatewayConfig } from './server/config.js';
export { createLogger, type GatewayLogger, type LogFields, type LogLevel } from './observability/logger.js';
export type { GatewayMetrics } from './observability/metrics.js';
export type { ResponseCacheOptions } from './shared-state/response-store.js';
export type { CorsOptions } from './transport/cors.js';
export type { QueryLimits } from './policy/limits.js';
export type { RedisSharingOptions } from './shared-state/replicas.js';
export type { OtlpTracingOptions, TracingOptions } from './observability/tracing.js';
