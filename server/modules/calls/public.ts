/** Calling as the janitor, the reports and the job queue use it: finding and closing calls no live instance owns; one day's call log; a saved outcome as a CRM of record logs it; a callback announced at its time; parallel dialing's rounds. Other modules import this file, never the module's other files (decision 013). */
export { closeCall, findUnfinishedSimulatedCalls } from './calls.repository.ts';
export { closeStaleCalls } from './stale-calls.janitor.ts';
export { findDayLog } from './day-log.ts';
export { findOutcomeToLog } from './outcome-to-log.repository.ts';
export { findCallbacksSince } from './callbacks.repository.ts';
export { announceCallback, CALLBACK_DUE_TASK, callbackDueTask } from './callback-due.task.ts';
export { RECORDING_FETCH_TASK, recordingFetchTask } from './recording-fetch.task.ts';
export {
  applyLineEvent,
  dialRound,
  newLineHold,
  pauseOpenRound,
  recordRound,
  settleOpenRound,
  type LineToDial,
} from './dial-rounds.service.ts';
export { findLatestRound, lockOpenRound, pacingCounts } from './dial-rounds.repository.ts';
