import type { Credential } from '../datasources/credentials.js';
import { RunnersApi, type RunnerSchema } from '../datasources/runners.js';
import type { PushIterator } from './push-iterator.js';
import type { RecordEvent, RecordPollers, WatchedRecord } from './record-pollers.js';

/** What a `ciRunnerStatusUpdated` subscriber receives: the runner after a change, or the error that ended the watch. */
export type RunnerStatusEvent = RecordEvent<RunnerSchema>;

function isPaused(runner: RunnerSchema): boolean {
  return runner.paused ?? runner.active === false;
}

/** What the subscription reports a change of: the runner's status and its paused state. */
export function runnerStatusAspect(runner: RunnerSchema): string {
  return `${runner.status ?? ''}|${isPaused(runner)}`;
}

/** A runner as the pollers watch it: `GET /runners/:id`, under the `runner` topic (`runner-lease:<digest>:<id>`). */
export function watchedRunner(runnerId: number): WatchedRecord<RunnerSchema> {
  return { topic: 'runner', id: String(runnerId), fetch: (session) => new RunnersApi(session).show(runnerId) };
}

/** Subscribes to a runner's status changes, through the shared pollers. */
export function watchRunnerStatus(pollers: RecordPollers, credential: Credential, runnerId: number): Promise<PushIterator<RunnerStatusEvent>> {
  return pollers.watch(credential, watchedRunner(runnerId), runnerStatusAspect);
}
