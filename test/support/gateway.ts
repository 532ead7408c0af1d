import { createGateway, type Gateway, type GatewayOptions, type ListeningGateway } from '../../src/index.js';

export interface GraphQLResponse<TData = Record<string, unknown>> {
  data?: TData | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
}

export interface TestGateway extends ListeningGateway {
  /** The gateway itself, for what only it can tell (its pollers). */
  gateway: Gateway;
  /** POSTs a GraphQL operation as a client would, with the token as PRIVATE-TOKEN when given. */
  query<TData = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GraphQLResponse<TData>>;
  close(): Promise<void>;
}

export interface TestGatewayOptions extends Partial<GatewayOptions> {
  /** Called before the gateway starts Apollo Server: where a test adds a plugin of its own. */
  beforeListen?: (apollo: Gateway['apollo']) => void;
}

/** Starts the real gateway on 127.0.0.1, port 0, in front of the given REST base URL. */
export async function startTestGateway(upstreamUrl: string, { beforeListen, ...options }: TestGatewayOptions = {}): Promise<TestGateway> {
  const gateway = createGateway({ upstreamUrl, landingPage: false, ...options });
  beforeListen?.(gateway.apollo);
  const listening = await gateway.listen({ port: 0, host: '127.0.0.1' });
  return {
    ...listening,
    gateway,
    async query<TData>(query: string, variables?: Record<string, unknown>, token?: string) {
      const response = await fetch(listening.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'private-token': token } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GraphQLResponse<TData>;
    },
    close: () => gateway.close(),
  };
}
