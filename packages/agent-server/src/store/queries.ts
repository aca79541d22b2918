import type { SqlValue } from '@bosun/database';
/** Which events to read: each field narrows the set. */
export interface EventFilter {
  kind?: string;
  source?: string;
  /** Lowercased substring of `searchText`. */
  body?: string;
  timestampGte?: string;
  timestampLt?: string;
}

/** A page of the catalog, in one order of `created_at` or `updated_at` (ties broken by id, the same way). */
export interface CatalogQuery {
  status?: string;
  orderBy: 'created_at' | 'updated_at';
  descending: boolean;
  /** The page starts at this row (the first of the page), in the order of the query. */
  from?: { value: string; id: string };
  limit: number;
}

/** The SQL condition each field of an event filter adds, with the field's value as its parameter. */
const FILTER_CONDITIONS: [keyof EventFilter, string][] = [
  ['kind', 'kind = ?'],
  ['source', 'source = ?'],
  ['body', 'instr(search_text, ?) > 0'],
  ['timestampGte', 'timestamp >= ?'],
  ['timestampLt', 'timestamp < ?'],
];

export function eventFilterSql(conversationId: string, filter: EventFilter): { where: string[]; params: SqlValue[] } {
  const where = ['conversation_id = ?'];
  const params: SqlValue[] = [conversationId];
  for (const [key, condition] of FILTER_CONDITIONS) {
    const value = filter[key];
    if (value === undefined) continue;
    where.push(condition);
    params.push(value);
  }
  return { where, params };
}

export function catalogQuerySql(query: CatalogQuery): { sql: string; params: SqlValue[] } {
  const { orderBy: column, descending } = query;
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (query.status) {
    where.push('status = ?');
    params.push(query.status);
  }
  if (query.from) {
    where.push(descending ? `(${column}, id) <= (?, ?)` : `(${column}, id) >= (?, ?)`);
    params.push(query.from.value, query.from.id);
  }
  const order = descending ? 'DESC' : 'ASC';
  const sql = `SELECT id FROM conversations ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${column} ${order}, id ${order} LIMIT ?`;
  return { sql, params: [...params, query.limit] };
}
