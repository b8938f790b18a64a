/** Slack as the app wires it: its routes and its posting job. Other modules import this file, never the module's other files (decision 013). */
export { registerSlackRoutes } from './slack.routes.ts';
export { SLACK_POST_TASK, slackPostTask } from './slack-post.task.ts';
