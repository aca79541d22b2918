import type { Static } from '@sinclair/typebox';
import { Event } from '../events/index.ts';
import { namedEnum } from '../schema/builders.ts';
import { pageOf } from './common.ts';

/** The app server's store of conversation events, as OpenHands' V1 API serves it. */

export const EVENT_SORT_ORDERS = ['TIMESTAMP', 'TIMESTAMP_DESC'] as const;

export const EventSortOrder = namedEnum(
  'EventSortOrder',
  'The conversation’s order (oldest first), or its reverse.',
  EVENT_SORT_ORDERS,
);
export type EventSortOrder = Static<typeof EventSortOrder>;

export const EventPage = pageOf(
  'EventPage',
  'A page of a conversation’s events; `next_page_id` is the id of the next page’s first event.',
  Event,
);
export type EventPage = Static<typeof EventPage>;
