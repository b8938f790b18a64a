/** Outgoing webhooks as the app wires them: their routes, their jobs and the watch that queues deliveries. Other modules import this file, never the module's other files (decision 013). */
export { registerWebhookRoutes } from './webhooks.routes.ts';
export { WEBHOOK_DELIVER_TASK, webhookDeliverTask } from './webhook-deliver.task.ts';
export {
  sweepWebhookEndpoints,
  WEBHOOK_SWEEP_CRONTAB,
  WEBHOOK_SWEEP_TASK,
  watchWebhookDeliveries,
  webhookSweepTask,
} from './webhook-kick.ts';
export {
  pruneDeliveryLog,
  WEBHOOK_LOG_RETENTION_CRONTAB,
  WEBHOOK_LOG_RETENTION_TASK,
  webhookLogRetentionTask,
} from './webhook-log-retention.task.ts';
