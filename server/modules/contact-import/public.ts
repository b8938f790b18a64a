/** Imports as other modules use them: the janitor finding running imports and ending those of a dead instance; a connected CRM's import running its rows through the same import (decision 036). Other modules import this file, never the module's other files (decision 013). */
export {
  claimAbandonedImport,
  failAbandonedImport,
  findRunningImports,
} from './import-records.repository.ts';
export { runImport } from './import.service.ts';
export { ImportFileError, type FileRow } from './readers/file-rows.ts';
