/** The pace of a send, in e-mails per minute (a mail server or provider limits how fast it accepts mail). */
export const PACE = { min: 1, max: 3_000, default: 60 } as const;
