/** Calling as the janitor uses it: finding and closing calls no live instance owns. Other modules import this file, never the module's other files (decision 013). */
export { closeCall, findUnfinishedSimulatedCalls } from './calls.repository.ts';
export { closeStaleCalls } from './stale-calls.janitor.ts';
