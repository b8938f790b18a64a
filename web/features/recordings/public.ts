/** Recordings as the other features use them: playing a voicemail or greeting, and the voicemail greeting settings. Other features import this file, never the feature's other files (decision 013). */
export { RecordingPlayer } from './components/recording-player.tsx';
export { VoicemailGreetingCard } from './components/voicemail-greeting-card.tsx';
export { CallRecordingCard } from './components/call-recording-card.tsx';
export { VoicemailDropsCard } from './components/voicemail-drops-card.tsx';
export { useVoicemailDrops } from './api/voicemail-drops.ts';
