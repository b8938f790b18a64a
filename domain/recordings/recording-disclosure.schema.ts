import { z } from 'zod';

/** One all-party-consent state as the settings list it: its code, name and the law that asks for a disclosure. */
export const RecordingDisclosureSchema = z.object({
  state: z.string(),
  name: z.string(),
  source: z.string(),
});
