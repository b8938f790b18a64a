/** Live updates as other features use them: the stream's state, and reacting to a change. Other features import this file, never the feature's other files (decision 013). */
export { onChangeEvent, useLiveStatus } from './use-change-events.ts';
