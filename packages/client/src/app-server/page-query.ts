/** A page of a search: the `next_page_id` of the previous page, and how many items at most. */
export interface PageQuery {
  page_id?: string;
  limit?: number;
}
