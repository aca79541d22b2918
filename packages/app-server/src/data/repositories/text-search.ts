import { type RawBuilder, sql } from 'kysely';

/** `column` holds `text`, in any case, with `%`, `_` and `\` in `text` taken literally (a search box's filter). */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
