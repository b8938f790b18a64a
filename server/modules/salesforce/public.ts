/** Salesforce as the app wires it: its routes and its jobs. Other modules import this file, never the module's other files (decision 037, 013). */
export { registerSalesforceRoutes } from './salesforce.routes.ts';
export {
  SALESFORCE_IMPORT_TASK,
  SALESFORCE_LOG_CALL_TASK,
  salesforceImportTask,
  salesforceLogCallTask,
} from './salesforce-jobs.ts';
