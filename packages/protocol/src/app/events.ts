import type { Static } from '@sinclair/typebox';
import { Event } from '../events/index.ts';
import { namedEnum } from '../schema/builders.ts';
import { pageOf } from './common.ts';

/** The app server's store of conversation events, as OpenHands' V1 API serves it. */

export const EVENT_SORT_ORDERS = ['TIMESTAMP', 'TIMESTAMP_DESC'] as const;

export const EventSortOrder = namedEnum('EventSortOrder', EVENT_SORT_ORDERS, {
  description: 'The conversation’s order (oldest first), or its reverse.',
});
export type EventSortOrder = Static<typeof EventSortOrder>;

export const EventPage = pageOf(
  'EventPage',
  Event,
  'A page of a conversation’s events; `next_page_id` is the id of the next page’s first event.',
);
export type EventPage = Static<typeof EventPage>;
