/** Outgoing webhooks as the app wires them: their routes and their delivery job. Other modules import this file, never the module's other files (decision 013). */
export { registerWebhookRoutes } from './webhooks.routes.ts';
export { WEBHOOK_DELIVER_TASK, webhookDeliverTask } from './webhook-deliver.task.ts';
