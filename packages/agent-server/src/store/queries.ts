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

export function eventFilterSql(conversationId: string, filter: EventFilter): { where: string[]; params: unknown[] } {
  const where = ['conversation_id = ?'];
  const params: unknown[] = [conversationId];
  if (filter.kind !== undefined) {
    where.push('kind = ?');
    params.push(filter.kind);
  }
  if (filter.source !== undefined) {
    where.push('source = ?');
    params.push(filter.source);
  }
  if (filter.body !== undefined) {
    where.push('instr(search_text, ?) > 0');
    params.push(filter.body);
  }
  if (filter.timestampGte !== undefined) {
    where.push('timestamp >= ?');
    params.push(filter.timestampGte);
  }
  if (filter.timestampLt !== undefined) {
    where.push('timestamp < ?');
    params.push(filter.timestampLt);
  }
  return { where, params };
}

export function catalogQuerySql(query: CatalogQuery): { sql: string; params: unknown[] } {
  const { orderBy: column, descending } = query;
  const where: string[] = [];
  const params: unknown[] = [];
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
