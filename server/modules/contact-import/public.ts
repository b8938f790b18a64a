/** Imports as the janitor sees them: finding running imports and ending those of a dead instance. Other modules import this file, never the module's other files (decision 013). */
export {
  claimAbandonedImport,
  failAbandonedImport,
  findRunningImports,
} from './import-records.repository.ts';
