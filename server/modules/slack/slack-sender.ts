import { isPermanentSlackFailure, type SlackMessage } from '#domain/slack/slack-messages.ts';
import type { AppContext } from '../../app-context.ts';
import { DestinationRefused, postJson } from '../../http/outgoing-post.ts';

export type SlackOutcome = { ok: true } | { ok: false; error: string; retry: boolean };

const SLACK_TIMEOUT_MS = 10_000;

/**
 * Posts one message to an incoming webhook. Slack answers `ok` with 200; otherwise its words (`no_service`,
 * `invalid_token`, `channel_is_archived`…) are kept for the card, and the post is retried only when trying again can
 * help (a rate limit, Slack's own error, no answer).
 */
export async function sendToSlack(
  ctx: Pick<AppContext, 'webhookAllowedHosts'>,
  url: string,
  message: SlackMessage,
): Promise<SlackOutcome> {
  try {
    const answer = await postJson(url, message, {
      allowedHosts: ctx.webhookAllowedHosts,
      timeoutMs: SLACK_TIMEOUT_MS,
    });
    if (answer.status >= 200 && answer.status < 300) return { ok: true };
    const words = answer.text.trim().slice(0, 200) || 'no reason given';
    return {
      ok: false,
      error: `Slack answered ${answer.status}: ${words}`,
      retry: !isPermanentSlackFailure(answer.status),
    };
  } catch (error) {
    if (error instanceof DestinationRefused) return { ok: false, error: error.message, retry: false };
    return { ok: false, error: `Slack could not be reached: ${(error as Error).message}`, retry: true };
  }
}
