// Injected failures for tests and benchmarks. Matched against the raw path after /api/v4.

export type FaultKind = 'status' | 'timeout' | 'malformed' | 'close';

export interface FaultSpec {
  /** Only requests with this method (any when omitted). */
  method?: string;
  /** Exact raw path after /api/v4 (for example `/projects/gitlab-org%2Fgitlab`), or a RegExp tested against it. */
  path: string | RegExp;
  /**
   * `status`: answer `status` (default 500) with `body` (default `{"message":"500 Internal Server Error"}`;
   * a string body is sent as is). `timeout`: never answer (until the simulator closes).
   * `malformed`: 200 with truncated JSON. `close`: destroy the socket without answering.
   */
  kind: FaultKind;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests it applies to; unlimited when omitted. */
  times?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Requests it still applies to (Infinity when unlimited). */
  remaining: number;
}

export class FaultRegistry {
  private readonly faults = new Map<string, Fault>();
  private counter = 0;

  add(spec: FaultSpec): string {
    const id = `fault-${++this.counter}`;
    this.faults.set(id, { ...spec, id, remaining: spec.times ?? Number.POSITIVE_INFINITY });
    return id;
  }

  remove(id: string): boolean {
    return this.faults.delete(id);
  }

  clear(): void {
    this.faults.clear();
  }

  list(): Fault[] {
    return [...this.faults.values()];
  }

  /** The first fault that applies to this request, consuming one of its `times`. */
  take(method: string, rawPath: string): Fault | undefined {
    for (const fault of this.faults.values()) {
      if (fault.method && fault.method.toUpperCase() !== method.toUpperCase()) continue;
      const matches = typeof fault.path === 'string' ? fault.path === rawPath : new RegExp(fault.path).test(rawPath);
      if (!matches) continue;
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.faults.delete(fault.id);
      return fault;
    }
    return undefined;
  }
}
