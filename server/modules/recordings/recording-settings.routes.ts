import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ALL_PARTY_CONSENT_STATES } from '#domain/consent/recording-rules.ts';
import {
  RecordingSettingsResponseSchema,
  RecordingSettingsSchema,
} from '#domain/recordings/call-recording.ts';
import { withActor } from '../../db/database.ts';
import type { AppContext } from '../../app-context.ts';
import { viewerOf } from '../../plugins/access-control.ts';
import { findRecordingSettings, saveRecordingSettings } from './recordings.repository.ts';

const approved = { config: { access: 'approved' as const } };
const allPartyStates = Object.entries(ALL_PARTY_CONSENT_STATES).map(([state, rule]) => ({ state, ...rule }));

/** Settings → Phone → Call recording (decision 030): on or off, and how many days recordings are kept. */
export function registerRecordingSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/recording-settings',
    { ...approved, schema: { response: { 200: RecordingSettingsResponseSchema } } },
    async (request) => {
      const userId = viewerOf(request).userId;
      const settings = await withActor(ctx.db, { kind: 'user', userId }, (trx) =>
        findRecordingSettings(trx, userId),
      );
      return { settings, allPartyStates };
    },
  );
  typed.put(
    '/api/recording-settings',
    {
      ...approved,
      schema: { body: RecordingSettingsSchema, response: { 200: RecordingSettingsResponseSchema } },
    },
    async (request) => {
      const userId = viewerOf(request).userId;
      const settings = await withActor(ctx.db, { kind: 'user', userId }, async (trx) => {
        await saveRecordingSettings(trx, userId, request.body, ctx.clock());
        return findRecordingSettings(trx, userId);
      });
      return { settings, allPartyStates };
    },
  );
}
