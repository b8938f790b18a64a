/** Recordings as other modules and the app use them: storing a voicemail, call recording or greeting, the user's greeting and recording settings, URLs to play them, deleting files. Other modules import this file, never the module's other files (decision 013). */
export { storeRecordingFile } from './store-recording.ts';
export {
  callHasRecording,
  findGreeting,
  findRecordingSettings,
  insertRecording,
} from './recordings.repository.ts';
export { recordingUrl, signedRecordingUrl } from './recording-urls.ts';
export { FILE_DELETIONS_TASK, fileDeletionsTask, deleteDueFiles } from './file-deletions.task.ts';
export {
  deleteExpired,
  RECORDING_RETENTION_CRONTAB,
  RECORDING_RETENTION_TASK,
  recordingRetentionTask,
} from './recording-retention.task.ts';
export { registerRecordingRoutes } from './recordings.routes.ts';
export { registerRecordingSettingsRoutes } from './recording-settings.routes.ts';
export { registerVoicemailGreetingRoutes } from './voicemail-greeting.routes.ts';
export { registerVoicemailDropRoutes } from './voicemail-drops.routes.ts';
export { findVoicemailDrop } from './voicemail-drops.repository.ts';
