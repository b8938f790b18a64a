import type { ComponentType } from 'react';
import type {
  CampaignChannel,
  CampaignTransition,
  RecipientState,
} from '#domain/campaigns/campaign-state.ts';
import type { BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import type { CampaignOf, RecipientOf } from '../api/campaign-queries.ts';
import type { CampaignForm } from './campaign-form-fields.tsx';
import type { RecipientLine } from './recipients-list.tsx';

type Words = { title: string; description: string };

/** What a campaign's page says for its actions: toasts, the Send button, and the confirmations. */
export type CampaignTexts = {
  said: Record<CampaignTransition, string>;
  sendLabel: string;
  confirmSend: Words & { label: string };
  confirmCancel: Words;
  confirmDelete: Words;
};

/** Contacts added and removed on a draft's save. */
export type ContactChanges = { add?: BulkSelection; remove?: string[] };

/**
 * What a channel (e-mail, SMS) supplies to the one campaign page: how its progress and actions are worded, its
 * draft's form and how it is saved, what a recipient row shows, and what it shows once under way. The page itself
 * (loading, the header with its actions, a draft's contacts added and removed) is the same for every channel.
 */
export type ChannelParts<K extends CampaignChannel, F extends CampaignForm> = {
  channel: K;
  progress: (campaign: CampaignOf<K>) => string;
  texts: (campaign: CampaignOf<K>) => CampaignTexts;
  /** Said under the progress (why it paused, where its messages go). */
  Notice: ComponentType<{ campaign: CampaignOf<K> }>;
  draft: {
    initial: (campaign: CampaignOf<K>) => F;
    Editor: ComponentType<{ campaign: CampaignOf<K>; form: F; onChange: (form: F) => void }>;
    /** Refuses, with the toast, a form that may not be saved. */
    check: (campaign: CampaignOf<K>, form: F, contacts: number) => boolean;
    useSave: (campaign: CampaignOf<K>) => {
      save: (
        form: F,
        contacts: ContactChanges,
        done: { onSuccess: () => void; onError: (e: Error) => void },
      ) => void;
      pending: boolean;
    };
    words: (campaign: CampaignOf<K>) => { title: string; contacts: string; save: string; saved: string };
  };
  describe: (campaign: CampaignOf<K>, recipient: RecipientOf<K>) => RecipientLine;
  labels?: (campaign: CampaignOf<K>) => Record<RecipientState, string>;
  /** A campaign under way: its recipients (and whatever else the channel offers then). */
  UnderWay: ComponentType<{ campaign: CampaignOf<K> }>;
};
