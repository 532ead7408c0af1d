import { Agent, type Dispatcher } from 'undici';

/** One moment of a REST call, seen from the gateway: `call` reads `GET /groups/gitlab-org` (no `/api/v4`, no query). */
export interface RestMoment {
  moment: 'sent' | 'answered' | 'ended';
  call: string;
}

/** Passes every callback on, noting when the answer's head arrives and when the exchange is over. */
class NotingHandler implements Dispatcher.DispatchHandler {
  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly note: (moment: RestMoment['moment']) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.inner.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>): void {
    this.inner.onRequestUpgrade?.(...args);
  }

  onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>): void {
    this.note('answered');
    this.inner.onResponseStart?.(...args);
  }

  onResponseData(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseData']>>): void {
    this.inner.onResponseData?.(...args);
  }

  onResponseEnd(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>>): void {
    this.note('ended');
    this.inner.onResponseEnd?.(...args);
  }

  onResponseError(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseError']>>): void {
    this.note('ended');
    this.inner.onResponseError?.(...args);
  }
}

/**
 * An undici dispatcher for the gateway (GatewayOptions.dispatcher) that keeps, in order, when each
 * REST call was sent and when its answer arrived. The order is deterministic where it matters: a
 * call sent before another call's answer arrived cannot have depended on that answer, whatever the
 * latency, so tests can tell REST waves apart without measuring time.
 */
export function restTimeline() {
  const moments: RestMoment[] = [];
  const agent = new Agent();
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    const call = `${options.method} ${String(options.path).replace(/^\/api\/v4/, '').replace(/\?.*$/, '')}`;
    moments.push({ moment: 'sent', call });
    return dispatch(options, new NotingHandler(handler, (moment) => moments.push({ moment, call })));
  });
  /** Where the first such moment stands in the timeline. */
  const position = (moment: RestMoment['moment'], call: string): number => {
    const index = moments.findIndex((entry) => entry.moment === moment && entry.call === call);
    if (index < 0) throw new Error(`no "${moment}" moment for ${call}; moments: ${JSON.stringify(moments)}`);
    return index;
  };
  return {
    dispatcher,
    moments,
    reset: () => {
      moments.length = 0;
    },
    /** How many times `later` was sent before `earlier`'s answer arrived: those calls are in `earlier`'s REST wave. */
    sentBeforeAnswered(later: string, earlier: string): number {
      const answered = position('answered', earlier);
      return moments.slice(0, answered).filter((entry) => entry.moment === 'sent' && entry.call === later).length;
    },
    /** Resolves once every call sent so far has ended (answered in full, or failed). */
    async settled(): Promise<void> {
      const count = (moment: RestMoment['moment']) => moments.filter((entry) => entry.moment === moment).length;
      while (count('ended') < count('sent')) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    close: () => agent.close(),
  };
}
