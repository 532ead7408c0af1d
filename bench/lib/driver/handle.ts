// The bench process's side of the driver: forks ./main.ts and calls it over IPC.
import { forkChild, type Child } from '../child-process.js';
import type { DriverApi } from './protocol.js';

export type Driver = Child<DriverApi>;

export function startDriver(): Promise<Driver> {
  // Only tsx's loader: the driver must not inherit flags meant for the bench process, such as
  // --cpu-prof (the profile is to show the gateway alone).
  return forkChild<DriverApi>(new URL('./main.ts', import.meta.url), ['--import', import.meta.resolve('tsx')], 'driver');
}
