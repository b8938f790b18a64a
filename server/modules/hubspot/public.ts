/** HubSpot as the app wires it: its routes and its jobs. Other modules import this file, never the module's other files (decision 036, 013). */
export { registerHubspotRoutes } from './hubspot.routes.ts';
export {
  HUBSPOT_IMPORT_TASK,
  HUBSPOT_LOG_CALL_TASK,
  hubspotImportTask,
  hubspotLogCallTask,
} from './hubspot-jobs.ts';
