/** Calling as the janitor and the reports use it: finding and closing calls no live instance owns; one day's call log. Other modules import this file, never the module's other files (decision 013). */
export { closeCall, findUnfinishedSimulatedCalls } from './calls.repository.ts';
export { closeStaleCalls } from './stale-calls.janitor.ts';
export { findDayLog } from './day-log.ts';
