import { type SecurityRisk, worstRisk } from './risk.ts';

/** Statements that destroy data wholesale, whatever the client that sends them. */
const DESTRUCTIVE = [
  /\bdrop\s+(table|database|schema|view|materialized\s+view|index|user|role|collection|keyspace|owned)\b/i,
  /\btruncate\b/i,
  /\balter\s+table\b[^;]*\bdrop\b/i,
  /\bflushall\b|\bflushdb\b/i,
  /\.dropDatabase\s*\(|\.drop\s*\(\s*\)|\.(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/,
];
const WRITE =
  /^\s*(insert|update|delete|create|alter|grant|revoke|replace|merge|upsert|copy|vacuum|reindex|set|del|hset|lpush|rpush|expire)\b/i;
const READ =
  /^\s*(select|show|explain|describe|desc|with|pragma|values|table|get|keys|info|ping|scan|exists|ttl|\\[a-z?]|\.(tables|schema|headers|mode|indexes))/i;

/**
 * The risk of database statements sent by a client (psql, mysql, sqlite3, mongosh, redis-cli...):
 * wholesale destruction (DROP, TRUNCATE, DELETE or UPDATE without WHERE, FLUSHALL) is HIGH, other writes
 * MEDIUM, reads LOW, and anything else UNKNOWN.
 */
export function sqlRisk(text: string): SecurityRisk {
  const statements = text
    .split(';')
    .map((statement) => statement.trim())
    .filter(Boolean);
  if (statements.length === 0) return 'UNKNOWN';
  return worstRisk(...statements.map(statementRisk));
}

function statementRisk(statement: string): SecurityRisk {
  if (DESTRUCTIVE.some((pattern) => pattern.test(statement))) return 'HIGH';
  if (/^\s*(delete\s+from|update)\b/i.test(statement) && !/\bwhere\b/i.test(statement)) return 'HIGH';
  if (WRITE.test(statement)) return 'MEDIUM';
  if (READ.test(statement)) return 'LOW';
  return 'UNKNOWN';
}

/**
 * Destructive SQL written in capitals anywhere in a command line (`python manage.py shell -c "...DROP TABLE..."`):
 * SQL reaches databases through too many programs to trace them all, and capitals make it unambiguous enough.
 */
export function shoutedSqlRisk(text: string): SecurityRisk {
  return /\b(DROP\s+(TABLE|DATABASE|SCHEMA)|TRUNCATE\s+TABLE|DELETE\s+FROM\s+\S+\s*(;|"|'|$))/m.test(text)
    ? 'HIGH'
    : 'LOW';
}
