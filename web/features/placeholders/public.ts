/** The honest empty state of a screen not built yet. Other features import this file, never the feature's other files (decision 013). */
export { NotBuiltYet } from './not-built-yet.tsx';
