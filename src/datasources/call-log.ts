/**
 * The REST calls one operation made, for a caller who asked to see them (EXPLAIN_REST_CALLS): how a
 * frontend developer sees why a query is slow. Each call's wave counts the rounds of REST before
 * it: a call asked for before any answer came is in wave 1, one asked for after answers of wave n
 * arrived is in wave n + 1. A page of records and their detail fields is two waves however wide.
 */
export interface LoggedCall {
  method: string;
  /** The REST path as called (the explain output names its endpoint template instead). */
  path: string;
  /** HTTP status, or 0 when no answer arrived (or nothing was sent). */
  status: number;
  durationMs: number;
  wave: number;
}

export interface PendingCall {
  call: LoggedCall;
  startedAt: number;
}

export class RestCallLog {
  readonly calls: LoggedCall[] = [];
  /** The latest wave any answered call belongs to. */
  private answeredWave = 0;

  /** A call asked for now (its wave is decided here, before it waits for a connection); `end` fills in its outcome. */
  begin(method: string, path: string): PendingCall {
    const call: LoggedCall = { method, path, status: 0, durationMs: 0, wave: this.answeredWave + 1 };
    this.calls.push(call);
    return { call, startedAt: performance.now() };
  }

  end({ call, startedAt }: PendingCall, status: number): void {
    call.status = status;
    call.durationMs = Math.round((performance.now() - startedAt) * 10) / 10;
    this.answeredWave = Math.max(this.answeredWave, call.wave);
  }
}
